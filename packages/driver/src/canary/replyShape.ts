import type { TappedResponse } from '../session/wireTap.js';
import { isUuid } from '../wire/uuid.js';
import { SUBMIT_RPCS } from '../wire/submitCheck.js';

/**
 * The shape of a JSON value without its values: `null`, `boolean`, `int`, `number`, and for a
 * string its kind (`string`, `string:empty`, `string:uuid`, `string:url`, or the shape of the JSON
 * it holds); arrays keep their length and their first items' shapes, objects their keys (a key
 * that looks like data is `<key>`).
 */
export type Shape =
  | string
  | { readonly array: number; readonly items: readonly Shape[] }
  | { readonly object: Readonly<Record<string, Shape>> }
  | { readonly json: Shape };

const MAX_DEPTH = 10;
const MAX_ITEMS = 20;
const MAX_KEYS = 40;

function stringShape(value: string, depth: number): Shape {
  if (value === '') return 'string:empty';
  if (isUuid(value)) return 'string:uuid';
  if (/^(?:https?:)?\/\//i.test(value)) return 'string:url';
  if (depth < MAX_DEPTH && /^\s*[[{]/.test(value)) {
    try {
      return { json: shapeOf(JSON.parse(value) as unknown, depth + 1) };
    } catch {
      // not JSON after all
    }
  }
  return 'string';
}

/** {@link Shape} of a decoded payload. */
export function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'number';
  if (typeof value === 'string') return stringShape(value, depth);
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? { array: value.length, items: [] } : 'object';
  if (Array.isArray(value))
    return { array: value.length, items: value.slice(0, MAX_ITEMS).map((v) => shapeOf(v, depth + 1)) };
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).slice(0, MAX_KEYS);
    return {
      object: Object.fromEntries(
        entries.map(([key, v]) => [/^[A-Za-z_$][\w$]{0,40}$/.test(key) ? key : '<key>', shapeOf(v, depth + 1)]),
      ),
    };
  }
  return typeof value;
}

/** The shapes of one rpc's replies seen during a check. */
export interface ReplyShapes {
  readonly rpc: string;
  /** Replies seen, and their HTTP statuses. */
  readonly seen: number;
  readonly http_statuses: readonly number[];
  /** The distinct shapes of their payloads (at most 5), and whether a reply was a refusal frame. */
  readonly shapes: readonly Shape[];
  readonly refusals: number;
}

/** The read-only replies' shapes, per rpc (submits are never sent during a check; they are left out anyway). */
export function replyShapes(responses: readonly TappedResponse[]): ReplyShapes[] {
  const byRpc = new Map<
    string,
    { seen: number; statuses: Set<number>; shapes: Map<string, Shape>; refusals: number }
  >();
  for (const response of responses) {
    for (const item of response.envelope?.items ?? []) {
      if (SUBMIT_RPCS.includes(item.rpcId)) continue;
      const entry = byRpc.get(item.rpcId) ?? { seen: 0, statuses: new Set(), shapes: new Map(), refusals: 0 };
      entry.seen += 1;
      entry.statuses.add(response.status);
      if (item.error !== null && item.error !== undefined) entry.refusals += 1;
      const shape = shapeOf(item.payload);
      if (entry.shapes.size < 5) entry.shapes.set(JSON.stringify(shape), shape);
      byRpc.set(item.rpcId, entry);
    }
  }
  return [...byRpc.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rpc, e]) => ({
      rpc,
      seen: e.seen,
      http_statuses: [...e.statuses].sort(),
      shapes: [...e.shapes.values()],
      refusals: e.refusals,
    }));
}

/** A build label is a release name (`boq_labs-ai-sandbox-frontend_20261006.09_p0`): anything else is not kept. */
export function cleanBuildLabel(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_.-]{1,120}$/.test(value) ? value : null;
}
