/**
 * Hosts media may be downloaded from (flow-wire §3a "Download"): exact host or dot-suffix match,
 * https only. `googlevideo.com` is where a video tile's `/asb/…` URL redirects (flow-captures.md §2).
 */
export const MEDIA_HOST_ALLOWLIST: readonly string[] = [
  'flow-content.google',
  'googleusercontent.com',
  'googleapis.com',
  'google.com',
  'labs.google',
  'googlevideo.com',
];

export function isAllowedMediaUrl(url: string, allowlist: readonly string[] = MEDIA_HOST_ALLOWLIST): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return false;
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  return allowlist.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
