import { FLOW_HOST } from '../net/hosts.js';
import type { Req, Res } from '../net/http.js';
import { addCookies, parseCookies, redirect, sendHtml, sendJson } from '../net/http.js';
import type { Account } from '../state/accounts.js';
import type { SimState } from '../state/simState.js';
import { labsCookies } from './auth.js';
import { safeContinue } from './accountsHost.js';

/** The labs NextAuth session (labs.google cookies only). */
export function labsSession(state: SimState, req: Req): Account | undefined {
  const read = state.signer.read(parseCookies(req).get('__Secure-next-auth.session-token'), 'labs');
  if (read === null) return undefined;
  const account = state.account(read.email);
  return account !== undefined && account.sessionGeneration === read.generation ? account : undefined;
}

export function bearerFor(state: SimState, account: Account): string {
  return `ya29.a0sim${state.signer.mint(account.email, account.sessionGeneration, 'bearer')}`;
}

const FLOW_PATH = /^\/fx(?:\/[a-z]{2,3}(?:-[A-Za-z]{2})?)?\/tools\/flow(\/.*)?$/;

export function handleLabs(state: SimState, req: Req, res: Res, url: URL): void {
  const path = url.pathname;
  const flow = FLOW_PATH.exec(path);
  if (flow !== null) {
    // Every account is migrated (2026-09-14 survey): labs answers 308 to flow.google.com.
    return redirect(res, 308, `https://${FLOW_HOST}${flow[1] ?? '/'}${url.search}`);
  }
  if (path === '/fx/api/auth/session') {
    const account = labsSession(state, req);
    if (account === undefined) return sendJson(res, 200, {});
    return sendJson(res, 200, {
      user: { name: account.displayName, email: account.email, image: `https://${FLOW_HOST}/_/static/avatar.png` },
      expires: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
      access_token: bearerFor(state, account),
    });
  }
  if (path === '/fx/api/auth/callback/google') {
    const code = state.signer.read(url.searchParams.get('code') ?? undefined, 'labs-code');
    const account = code === null ? undefined : state.account(code.email);
    const cont = safeContinue(url.searchParams.get('continue'));
    if (account === undefined || code?.generation !== account.sessionGeneration)
      return redirect(res, 302, `/fx/api/auth/signin?error=Callback`);
    addCookies(res, labsCookies(state, account));
    return redirect(res, 302, cont);
  }
  if (path === '/fx/api/auth/signin') {
    return sendHtml(
      res,
      200,
      `<!doctype html><title>Sign in</title><h1>Sign in to labs.google</h1><a class="signin-google" href="https://accounts.google.com/ServiceLogin?continue=https%3A%2F%2Flabs.google%2Ffx%2Ftools%2Fflow">Sign in with Google</a>`,
    );
  }
  if (path.startsWith('/fx/api/trpc/')) {
    if (labsSession(state, req) === undefined)
      return sendJson(res, 401, { error: { json: { message: 'UNAUTHORIZED', code: -32001 } } });
    return sendJson(res, 404, {
      error: {
        json: {
          message: 'Flow RPCs have been deprecated and disabled. Flow has migrated to https://flow.google.com.',
          code: -32004,
        },
      },
    });
  }
  if (path === '/' || path === '/fx' || path === '/fx/')
    return sendHtml(res, 200, '<!doctype html><title>Google Labs</title><h1>Google Labs</h1>');
  sendHtml(res, 404, '<h1>404</h1>');
}
