/**
 * The labs NextAuth oracle `GET https://labs.google/fx/api/auth/session` (flow-wire §2
 * "Session probes"): live = 200 `{"user":{"email":…},…}`; none = 200 `{}`; anything non-200 or
 * non-JSON is a verification error, retried on 429/503/504.
 */
export type OracleVerdict =
  | { readonly kind: 'authenticated'; readonly email: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'error'; readonly retry: boolean; readonly detail: string };

export const ORACLE_RETRY_STATUSES: readonly number[] = [429, 503, 504];

export function classifyOracleReply(status: number, body: string): OracleVerdict {
  if (status !== 200) {
    return {
      kind: 'error',
      retry: ORACLE_RETRY_STATUSES.includes(status),
      detail: `the labs session endpoint answered HTTP ${status}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {
      kind: 'error',
      retry: false,
      detail: 'the labs session endpoint answered 200 with a body that is not JSON',
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      kind: 'error',
      retry: false,
      detail: 'the labs session endpoint answered 200 with JSON that is not an object',
    };
  }
  const user = (parsed as Record<string, unknown>)['user'];
  if (user !== null && typeof user === 'object' && !Array.isArray(user)) {
    const email = (user as Record<string, unknown>)['email'];
    if (typeof email === 'string' && email.trim() !== '') return { kind: 'authenticated', email: email.trim() };
  }
  return { kind: 'empty' };
}
