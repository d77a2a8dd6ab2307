import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';

export const BEARER_CHALLENGE = 'Bearer realm="gflow"';

/** Compares two secrets in constant time (digests have equal length whatever the inputs). */
export function tokensMatch(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  if (header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token || undefined;
}

/** The daemon's one 401 for a request without a valid bearer token (JSON-RPC shaped, with the challenge). */
export function unauthorized(c: Context): Response {
  return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }, 401, {
    'WWW-Authenticate': BEARER_CHALLENGE,
  });
}
