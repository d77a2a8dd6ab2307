import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a parsed /mcp body is modern (2026-07-28) traffic by the SDK's own rule, without asking
 * it: one JSON-RPC request or notification (no `result` or `error`, not a batch), other than
 * `initialize`, whose `params._meta` carries the envelope claim (the protocol-version key). The SDK
 * never routes such a body to its legacy leg (`isLegacyRequest`: "returns false for … a request
 * carrying the envelope claim"; the modern handler answers it or its malformed envelope), so it goes
 * to the modern handler without being classified twice: `isLegacyRequest` runs the same
 * classification the handler runs again, zod checks included, a few % of a call's CPU
 * (apps/http/bench/RESULTS.md). Any other body still asks `isLegacyRequest`.
 */
export function carriesEnvelopeClaim(body: unknown): boolean {
  if (!isPlainObject(body) || 'result' in body || 'error' in body) return false;
  if (typeof body['method'] !== 'string' || body['method'] === 'initialize') return false;
  const params = body['params'];
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}
