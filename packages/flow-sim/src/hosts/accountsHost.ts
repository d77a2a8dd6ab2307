import { ACCOUNTS_HOST, FLOW_HOST, LABS_HOST } from '../net/hosts.js';
import type { Req, Res } from '../net/http.js';
import { addCookies, formDecode, parseCookies, readBody, redirect, sendHtml, sendJson } from '../net/http.js';
import { chooserPage, identifierPage, passwordPage, rejectedPage } from '../pages/accountsPages.js';
import type { Account } from '../state/accounts.js';
import type { SimState } from '../state/simState.js';
import { accountsHostCookies, expiredCookies, googleCookies, googleSession } from './auth.js';

const DEFAULT_CONTINUE = `https://${FLOW_HOST}/`;

/** Only Google hosts the simulator serves are allowed as continue targets. */
export function safeContinue(raw: string | null): string {
  if (raw === null) return DEFAULT_CONTINUE;
  try {
    const url = new URL(raw);
    if (
      url.protocol === 'https:' &&
      (url.hostname.endsWith('.google.com') || url.hostname === 'google.com' || url.hostname === LABS_HOST)
    )
      return url.href;
  } catch {
    // fall through
  }
  return DEFAULT_CONTINUE;
}

function remembered(req: Req): string[] {
  return (parseCookies(req).get('__Host-GAPS') ?? '').split(':').filter((e) => e.includes('@'));
}

/** Where a fresh sign-in goes next: via the labs NextAuth callback when the account has a labs session. */
function afterSignIn(state: SimState, account: Account, continueUrl: string): string {
  if (!account.labsSession) return continueUrl;
  const code = state.signer.mint(account.email, account.sessionGeneration, 'labs-code');
  return `https://${LABS_HOST}/fx/api/auth/callback/google?${new URLSearchParams({ code, continue: continueUrl })}`;
}

function signIn(state: SimState, res: Res, req: Req, account: Account): void {
  const list = [account.email, ...remembered(req).filter((e) => e !== account.email)].slice(0, 8);
  addCookies(res, [...googleCookies(state, account), ...accountsHostCookies(state, account, list)]);
}

export async function handleAccounts(state: SimState, req: Req, res: Res, url: URL): Promise<void> {
  const cont = safeContinue(url.searchParams.get('continue'));
  const path = url.pathname;
  if (
    path === '/' ||
    path === '/ServiceLogin' ||
    path === '/signin' ||
    path === '/v3/signin' ||
    path === '/AccountChooser'
  ) {
    const session = googleSession(state, req);
    if (session !== undefined) {
      const target = new URL(cont);
      if (target.hostname === FLOW_HOST) {
        const auth = state.signer.mint(session.email, session.sessionGeneration, 'osid-handoff');
        redirect(res, 302, `https://${FLOW_HOST}/_/login?${new URLSearchParams({ continue: cont, auth })}`);
      } else redirect(res, 302, cont);
      return;
    }
    const known = remembered(req);
    redirect(
      res,
      302,
      `https://${ACCOUNTS_HOST}/v3/signin/${known.length > 0 ? 'accountchooser' : 'identifier'}?${new URLSearchParams({ continue: cont })}`,
    );
    return;
  }
  if (path === '/v3/signin/identifier') {
    // A test switch, not a Google fact: the sign-in page is held until the test clears the switch.
    if (state.failures.peek(null, 'held_sign_in') !== null) {
      state.received.pushHeld(path);
      await state.failures.whenOff(null, 'held_sign_in');
    }
    return sendHtml(res, 200, identifierPage(cont, url.searchParams.get('Email') ?? ''));
  }
  if (path === '/v3/signin/accountchooser') return sendHtml(res, 200, chooserPage(cont, remembered(req)));
  if (path === '/v3/signin/rejected') return sendHtml(res, 200, rejectedPage());
  if (path === '/v3/signin/challenge/pwd') {
    const email = url.searchParams.get('identifier') ?? '';
    if (!email.includes('@'))
      return redirect(res, 302, `/v3/signin/identifier?${new URLSearchParams({ continue: cont })}`);
    return sendHtml(res, 200, passwordPage(cont, email));
  }
  if (path === '/v3/signin/confirmidentifier') {
    const session = googleSession(state, req);
    if (session === undefined)
      return redirect(res, 302, `/v3/signin/identifier?${new URLSearchParams({ continue: cont })}`);
    return sendHtml(res, 200, passwordPage(cont, session.email, 'Confirm it’s you', 'recheck'));
  }
  if (path === '/v3/signin/_/choose') {
    const email = url.searchParams.get('identifier') ?? '';
    const lsid = state.signer.read(parseCookies(req).get('LSID'), 'lsid');
    const account = state.account(email);
    if (
      account !== undefined &&
      lsid !== null &&
      lsid.email === account.email &&
      lsid.generation === account.sessionGeneration
    ) {
      signIn(state, res, req, account);
      return redirect(res, 302, afterSignIn(state, account, cont));
    }
    return redirect(res, 302, `/v3/signin/challenge/pwd?${new URLSearchParams({ continue: cont, identifier: email })}`);
  }
  if (path === '/v3/signin/_/pwd' && req.method === 'POST') {
    const form = formDecode((await readBody(req)).toString('utf8'));
    let account: Account;
    try {
      account = state.ensureAccount(form.get('identifier') ?? '');
    } catch {
      return sendJson(res, 200, { error: 'Couldn’t find your Google Account' });
    }
    const given = form.get('Passwd') ?? '';
    if (account.password !== null && given !== account.password)
      return sendJson(res, 200, { error: 'Wrong password. Try again or click Forgot password to reset it.' });
    const target = safeContinue(form.get('continue'));
    if (form.get('purpose') === 'recheck') {
      state.failures.clear(account.email, 'identity_recheck');
      return sendJson(res, 200, { redirect: target });
    }
    signIn(state, res, req, account);
    return sendJson(res, 200, { redirect: afterSignIn(state, account, target) });
  }
  if (path === '/Logout' || path === '/logout') {
    addCookies(res, [
      ...expiredCookies(
        ['SID', 'HSID', 'SSID', 'APISID', 'SAPISID', '__Secure-1PSID', '__Secure-3PSID', '__Secure-1PAPISID'],
        '.google.com',
      ),
      ...expiredCookies(['LSID']),
    ]);
    return redirect(res, 302, cont);
  }
  sendHtml(res, 404, '<h1>404</h1>');
}
