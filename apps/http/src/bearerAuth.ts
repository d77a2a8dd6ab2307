import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

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

/**
 * The daemon's bearer gate. It is mounted before everything else, so an
 * unauthenticated caller gets 401 and learns nothing about the transport or
 * the Host/Origin allow-list. A missing header, another scheme and a wrong
 * token all answer the same 401 with `WWW-Authenticate: Bearer realm="gflow"`.
 */
export function bearerAuth(expected: string): MiddlewareHandler {
  return async (c, next) => {
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (presented === undefined || !tokensMatch(presented, expected)) {
      return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }, 401, {
        'WWW-Authenticate': BEARER_CHALLENGE,
      });
    }
    return await next();
  };
}
