import { FLOW_UUID, isFlowUuid } from '@gflow/flow-facts';

/** Flow's media, workflow and project ids are UUIDs (flow-wire §3a): the one rule, @gflow/flow-facts'. */
export const UUID_RE = FLOW_UUID;

export const isUuid = isFlowUuid;

/** The first UUID met in a depth-first walk of a JSON value, or null. */
export function firstUuid(value: unknown): string | null {
  if (isUuid(value)) return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = firstUuid(v);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Every string in a JSON value (depth-first), including strings inside nested JSON strings. */
export function allStrings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') {
    out.push(value);
    if (depth < 3 && (value.startsWith('[') || value.startsWith('{'))) {
      try {
        allStrings(JSON.parse(value) as unknown, out, depth + 1);
      } catch {
        // not nested JSON
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) allStrings(v, out, depth);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) allStrings(v, out, depth);
  }
  return out;
}
