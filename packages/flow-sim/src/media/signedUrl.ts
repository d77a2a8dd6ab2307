import { CONTENT_HOST, GOOGLEVIDEO_HOST } from '../net/hosts.js';
import type { SimState } from '../state/simState.js';

export const KEY_NAME = 'labs-flow-prod-cdn-key';

/** A signed-looking, expiring flow-content.google URL (Cloud CDN style). */
export function signedUrl(state: SimState, path: string, ttlSeconds = state.urlTtlSeconds): string {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const signature = state.signer.sign(`${path}|${expires}`);
  return `https://${CONTENT_HOST}${path}?Expires=${expires}&KeyName=${KEY_NAME}&Signature=${signature}`;
}

/** The googlevideo URL a video tile's `/asb/…` redirects to (flow-captures.md §2), signed the same way. */
export function googlevideoUrl(state: SimState, mediaId: string): string {
  const path = `/videoplayback/${mediaId}`;
  const expires = Math.floor(Date.now() / 1000) + state.urlTtlSeconds;
  return `https://${GOOGLEVIDEO_HOST}${path}?Expires=${expires}&KeyName=${KEY_NAME}&Signature=${state.signer.sign(`${path}|${expires}`)}&mime=video%2Fmp4`;
}

export type UrlCheck = 'ok' | 'expired' | 'bad-signature';

/** Checks a signed URL; `signedPath` when the signature is over another path than the URL's own. */
export function checkSignedUrl(state: SimState, url: URL, signedPath = url.pathname): UrlCheck {
  const expires = Number(url.searchParams.get('Expires'));
  const signature = url.searchParams.get('Signature') ?? '';
  if (url.searchParams.get('KeyName') !== KEY_NAME || signature !== state.signer.sign(`${signedPath}|${expires}`)) {
    return 'bad-signature';
  }
  return expires * 1000 < Date.now() ? 'expired' : 'ok';
}
