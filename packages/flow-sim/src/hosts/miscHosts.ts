import { FLOW_HOST } from '../net/hosts.js';
import type { Req, Res } from '../net/http.js';
import { escapeHtml, redirect, sendHtml, sendJson, sendText } from '../net/http.js';
import type { SimState } from '../state/simState.js';
import { googleSession } from './auth.js';
import { bearerFor } from './labsHost.js';

const TIER_INFO = {
  free: { userPaygateTier: 'PAYGATE_TIER_NOT_PAID', sku: 'G1_FREE', subscriptionCredits: 0 },
  pro: { userPaygateTier: 'PAYGATE_TIER_ONE', sku: 'G1_PRO', subscriptionCredits: 1000 },
  ultra: { userPaygateTier: 'PAYGATE_TIER_TWO', sku: 'G1_ULTRA', subscriptionCredits: 12500 },
} as const;

/** myaccount.google.com: stays on its origin for a live session, redirects otherwise. */
export function handleMyAccount(state: SimState, req: Req, res: Res): void {
  const account = googleSession(state, req);
  if (account === undefined) return redirect(res, 302, 'https://www.google.com/account/about/');
  const e = escapeHtml(account.email);
  sendHtml(
    res,
    200,
    `<!doctype html><title>Google Account</title><h1>Welcome, ${escapeHtml(account.displayName)}</h1><p class="email">${e}</p><p>Signed in as ${e}</p><a href="mailto:${e}">${e}</a>`,
  );
}

/** www.google.com: the signed-out landing and the reCAPTCHA Enterprise reload the page calls before submit. */
export function handleWww(state: SimState, req: Req, res: Res, url: URL): void {
  if (url.pathname.startsWith('/recaptcha/enterprise/reload')) {
    res.setHeader('access-control-allow-origin', `https://${FLOW_HOST}`);
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('access-control-allow-headers', 'content-type');
    res.setHeader('access-control-allow-methods', 'POST');
    if (req.method === 'OPTIONS') return sendText(res, 204, '');
    const token = `03AFcWeA${state.random.hex(60)}${'x'.repeat(2300)}`;
    return sendText(
      res,
      200,
      `)]}'\n${JSON.stringify(['rresp', token, null, 120, null, null, null, null, null, 'ec'])}`,
      'application/json',
    );
  }
  if (url.pathname.startsWith('/account/about'))
    return sendHtml(
      res,
      200,
      '<!doctype html><title>Google Account</title><h1>Google Account</h1><a href="https://accounts.google.com/ServiceLogin">Sign in</a>',
    );
  sendHtml(res, 404, '<h1>404</h1>');
}

/** aisandbox-pa.googleapis.com: the legacy Bearer credits route (`/v1/credits`). */
export function handleAisandbox(state: SimState, req: Req, res: Res, url: URL): void {
  res.setHeader('access-control-allow-origin', 'https://labs.google');
  res.setHeader('access-control-allow-headers', 'authorization, content-type');
  if (req.method === 'OPTIONS') return sendText(res, 204, '');
  const auth = req.headers.authorization ?? '';
  const token = auth.startsWith('Bearer ya29.a0sim') ? auth.slice('Bearer ya29.a0sim'.length) : undefined;
  const read = state.signer.read(token, 'bearer');
  const account = read === null ? undefined : state.account(read.email);
  if (
    account === undefined ||
    account.sessionGeneration !== read?.generation ||
    `Bearer ${bearerFor(state, account)}` !== auth
  ) {
    return sendJson(res, 401, {
      error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
    });
  }
  if (url.pathname === '/v1/credits' || url.pathname === '/v1/credits:get') {
    const tier = TIER_INFO[account.tier];
    return sendJson(res, 200, {
      credits: account.credits,
      subscriptionCredits: tier.subscriptionCredits,
      userPaygateTier: tier.userPaygateTier,
      serviceTier: 'SERVICE_TIER_STANDARD',
      sku: tier.sku,
    });
  }
  sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
}
