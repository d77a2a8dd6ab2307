import { FLOW_ORIGIN, flowProjectUrl } from '@gflow/flow-facts';

/**
 * Host and landing classification by exact https host, never by substring (flow-wire §1).
 */
export type FlowHostKind = 'migrated' | 'labs' | 'none';
export type FlowLanding = 'app' | 'public' | 'signin' | 'unavailable' | 'project-denied' | 'labs' | 'elsewhere';
export type FlowHostSetting = 'auto' | 'flow.google.com' | 'labs.google';

export { FLOW_ORIGIN };

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function flowHostKind(url: string): FlowHostKind {
  const u = parse(url);
  if (u === null || u.protocol !== 'https:') return 'none';
  if (u.hostname === 'flow.google.com') return 'migrated';
  if (u.hostname === 'labs.google') return 'labs';
  return 'none';
}

/** Google's sign-in hosts: a landing there means the session is gone. */
function isSignInHost(u: URL): boolean {
  return u.protocol === 'https:' && u.hostname === 'accounts.google.com';
}

/**
 * Where a page is: the Flow app, the public /about page, a sign-in page (accounts.google.com or
 * labs NextAuth `/fx/api/auth/…`), the no-access /unavailable page, `/404?reason=project`, a labs
 * page, or somewhere else.
 */
export function flowLandingKind(url: string): FlowLanding {
  const u = parse(url);
  if (u === null) return 'elsewhere';
  if (isSignInHost(u)) return 'signin';
  const kind = flowHostKind(url);
  if (kind === 'none') return 'elsewhere';
  const path = u.pathname;
  if (path.startsWith('/fx/api/auth/')) return 'signin';
  if (kind === 'labs') return 'labs';
  if (path === '/about' || path === '/about/') return 'public';
  if (path === '/unavailable' || path.startsWith('/unavailable/')) return 'unavailable';
  if (path === '/404' && u.searchParams.get('reason') === 'project') return 'project-denied';
  return 'app';
}

/** The flow.google.com project editor URL. */
export function projectUrl(projectId: string): string {
  return flowProjectUrl(projectId);
}

/** The project id of a `/project/<id>` URL on flow.google.com, else null. */
export function projectIdOfUrl(url: string): string | null {
  if (flowHostKind(url) !== 'migrated') return null;
  const m = /^\/project\/([^/?#]+)/.exec(new URL(url).pathname);
  return m?.[1] === undefined ? null : decodeURIComponent(m[1]);
}
