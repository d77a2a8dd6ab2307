// The page's own batchexecute client: form-encoded f.req + at=, )]}' chunked replies.
import { boot, wiz } from './dom.js';
import { unwrapReply } from './drift.js';

export class RpcHttpError extends Error {
  constructor(status, rpcId) {
    super(`${rpcId} HTTP ${status}`);
    this.status = status;
    this.rpcId = rpcId;
  }
}

export class RpcRefusalError extends Error {
  constructor(error, rpcId) {
    super(`${rpcId} refused ${JSON.stringify(error)}`);
    this.error = error;
    this.code = Array.isArray(error) ? error[0] : null;
    this.rpcId = rpcId;
  }
}

let reqid = 100000 + Math.floor(Math.random() * 9000);

/** Lenient envelope parse: skip length lines, decode each line that starts with '['. */
export function parseEnvelope(text) {
  const items = [];
  for (const line of text.replace(/^\)\]\}'/, '').split('\n')) {
    if (!line.startsWith('[')) continue;
    try {
      for (const item of JSON.parse(line)) items.push(item);
    } catch {
      // a partial line: ignore, as the real client does
    }
  }
  return items;
}

/**
 * POST one rpc. `noRpcids` leaves the rpcids query parameter out (nprQif does).
 * Resolves to the decoded payload (null for a null payload), throws on HTTP or refusal.
 */
export async function rpc(rpcId, inner, options = {}) {
  const params = new URLSearchParams();
  if (!options.noRpcids) params.set('rpcids', rpcId);
  params.set('source-path', location.pathname);
  params.set('f.sid', wiz.FdrFJe);
  params.set('bl', wiz.cfb2h);
  params.set('hl', boot.locale.split('-')[0]);
  params.set('soc-app', '1');
  params.set('soc-platform', '1');
  params.set('soc-device', '1');
  reqid += 100000;
  params.set('_reqid', String(reqid));
  params.set('rt', 'c');
  const fReq = JSON.stringify([[[rpcId, JSON.stringify(inner), null, 'generic']]]);
  const body = `${new URLSearchParams({ 'f.req': fReq, at: wiz.SNlM0e })}&`;
  const res = await fetch(`/_/AiSandboxAngularFrontend/data/batchexecute?${params}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'x-same-domain': '1' },
    body,
    signal: options.signal,
  });
  if (!res.ok) throw new RpcHttpError(res.status, rpcId);
  const items = parseEnvelope(await res.text());
  const item = items.find((i) => Array.isArray(i) && i[0] === 'wrb.fr' && i[1] === rpcId);
  if (!item) throw new RpcHttpError(0, rpcId);
  if (item[5]) {
    const err = new RpcRefusalError(item[5], rpcId);
    if (options.allowNullStatus && item[2] === null) return { nullStatus: item[5] };
    throw err;
  }
  return item[2] === null ? null : unwrapReply(rpcId, JSON.parse(item[2]));
}

/** reCAPTCHA Enterprise: the page mints a token ~0.2 s before a submit. */
export async function recaptchaToken() {
  try {
    const res = await fetch(
      'https://www.google.com/recaptcha/enterprise/reload?k=6LdSimFlowSiteKey000000000000000000000',
      {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/x-protobuffer' },
        body: 'sim',
      },
    );
    const parsed = JSON.parse((await res.text()).replace(/^\)\]\}'\n/, ''));
    return parsed[1];
  } catch {
    return `03AFcWeA${'0'.repeat(2400)}`;
  }
}

export function clientContext(projectId, token) {
  return [null, 22, null, null, null, projectId, null, null, null, null, [token, 1]];
}

export function promptStruct(prompt) {
  return [null, null, [[[prompt]]]];
}
