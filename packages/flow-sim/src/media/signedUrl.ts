import { CONTENT_HOST } from '../net/hosts.js';
import type { SimState } from '../state/simState.js';

export const KEY_NAME = 'labs-flow-prod-cdn-key';

/** A signed-looking, expiring flow-content.google URL (Cloud CDN style). */
export function signedUrl(state: SimState, path: string, ttlSeconds = state.urlTtlSeconds): string {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const signature = state.signer.sign(`${path}|${expires}`);
  return `https://${CONTENT_HOST}${path}?Expires=${expires}&KeyName=${KEY_NAME}&Signature=${signature}`;
}

export type UrlCheck = 'ok' | 'expired' | 'bad-signature';

export function checkSignedUrl(state: SimState, url: URL): UrlCheck {
  const expires = Number(url.searchParams.get('Expires'));
  const signature = url.searchParams.get('Signature') ?? '';
  if (url.searchParams.get('KeyName') !== KEY_NAME || signature !== state.signer.sign(`${url.pathname}|${expires}`)) {
    return 'bad-signature';
  }
  return expires * 1000 < Date.now() ? 'expired' : 'ok';
}
