import { WireFormatError } from '@gflow/errors';
import { firstUuid, isUuid } from '../wire/uuid.js';

/** The strings of a JSON value, depth-first (no nested JSON strings). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  return out;
}

/**
 * jHPbke, create project. The reply was never captured (flow-captures.md §9, [U]): read by shape,
 * not by index — the project id is the reply's UUID, the title its first other non-empty string
 * (the simulator serves `[project_id, [title]]` and a wrapped variant).
 */
export function parseCreateProjectReply(payload: unknown): { project_id: string; title: string } {
  const projectId = firstUuid(payload);
  const title = stringsOf(payload).find((s): boolean => s.trim() !== '' && !isUuid(s));
  if (projectId !== null && title !== undefined) return { project_id: projectId, title };
  throw new WireFormatError(
    `Flow's create-project reply (jHPbke) names no project id and title gflow can read: ${shapeOf(payload)}.`,
  );
}

/**
 * o8DA4, rename project ([U], read by shape): the title asked for when the reply carries it, else
 * its first string that is not an id (the caller compares it with the title asked for).
 */
export function parseRenameProjectReply(payload: unknown, asked?: string): { title: string } {
  const strings = stringsOf(payload).filter((s): boolean => s.trim() !== '' && !isUuid(s));
  const wanted = asked?.trim();
  const title = (wanted === undefined ? undefined : strings.find((s) => s.trim() === wanted)) ?? strings[0];
  if (title !== undefined) return { title };
  throw new WireFormatError(`Flow's rename-project reply (o8DA4) carries no title: ${shapeOf(payload)}.`);
}

/** A redacted description of a payload's shape for error details (no values). */
export function shapeOf(value: unknown, depth = 0): string {
  if (Array.isArray(value)) {
    if (depth >= 2) return `[…${value.length}]`;
    return `[${value
      .slice(0, 4)
      .map((v) => shapeOf(v, depth + 1))
      .join(',')}${value.length > 4 ? ',…' : ''}]`;
  }
  if (value === null) return 'null';
  return typeof value;
}
