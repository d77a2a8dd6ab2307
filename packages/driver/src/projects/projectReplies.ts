import { WireFormatError } from '@gflow/errors';

/** jHPbke, create project (flow-wire §3a): `[project_id, [title]]`. */
export function parseCreateProjectReply(payload: unknown): { project_id: string; title: string } {
  if (Array.isArray(payload) && typeof payload[0] === 'string' && payload[0] !== '' && Array.isArray(payload[1]) && typeof payload[1][0] === 'string') {
    return { project_id: payload[0], title: payload[1][0] };
  }
  throw new WireFormatError(`Flow's create-project reply (jHPbke) is not [project_id, [title]]: ${shapeOf(payload)}.`);
}

/** o8DA4, rename project (flow-wire §3a): `[title]`. */
export function parseRenameProjectReply(payload: unknown): { title: string } {
  if (Array.isArray(payload) && typeof payload[0] === 'string') return { title: payload[0] };
  throw new WireFormatError(`Flow's rename-project reply (o8DA4) is not [title]: ${shapeOf(payload)}.`);
}

/** A redacted description of a payload's shape for error details (no values). */
export function shapeOf(value: unknown, depth = 0): string {
  if (Array.isArray(value)) {
    if (depth >= 2) return `[…${value.length}]`;
    return `[${value.slice(0, 4).map((v) => shapeOf(v, depth + 1)).join(',')}${value.length > 4 ? ',…' : ''}]`;
  }
  if (value === null) return 'null';
  return typeof value;
}
