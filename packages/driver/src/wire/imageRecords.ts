import { isUuid } from './uuid.js';

/**
 * The synchronous image reply of `ogiZ0b` (flow-wire §3a): `[[[MEDIA]], [[WORKFLOW]]]`, with
 * MEDIA = `[mediaId, null, workflowId, null, null, null, [DETAILS, null, [w, h]]]` and
 * WORKFLOW = `[workflowId, null, null, [title, [ts], null, null, mediaId, …], projectId]`.
 * Both are found by shape anywhere in the payload.
 */
export interface ImageRecord {
  readonly mediaId: string;
  readonly workflowId: string;
  readonly projectId: string | null;
  readonly seed: number | null;
  readonly prompt: string | null;
  /** DETAILS[13]: the signed `flow-content.google/image/<id>` URL. */
  readonly url: string | null;
  readonly width: number | null;
  readonly height: number | null;
  /** Media ids named in DETAILS[15] (the references). */
  readonly referenceIds: readonly string[];
  /** WORKFLOW[3][0]: the title the library (and the `@` and Frames pickers) list the image by. */
  readonly title: string | null;
}

function isMediaShape(v: unknown): v is unknown[] {
  return (
    Array.isArray(v) && isUuid(v[0]) && isUuid(v[2]) && Array.isArray(v[6]) && Array.isArray((v[6] as unknown[])[0])
  );
}

function isWorkflowShape(v: unknown): v is unknown[] {
  return Array.isArray(v) && isUuid(v[0]) && v[1] === null && Array.isArray(v[3]) && isUuid(v[4]);
}

function uuidsIn(value: unknown, out: string[]): void {
  if (isUuid(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) uuidsIn(v, out);
}

function walk(value: unknown, media: unknown[][], workflows: unknown[][], depth: number): void {
  if (depth > 8 || !Array.isArray(value)) return;
  if (isMediaShape(value)) {
    media.push(value);
    return;
  }
  if (isWorkflowShape(value)) {
    workflows.push(value);
    return;
  }
  for (const child of value) walk(child, media, workflows, depth + 1);
}

export function findImageRecords(payload: unknown): ImageRecord[] {
  const media: unknown[][] = [];
  const workflows: unknown[][] = [];
  walk(payload, media, workflows, 0);
  return media.map((m) => {
    const block = m[6] as unknown[];
    const details = block[0] as unknown[];
    const size = Array.isArray(block[2]) ? (block[2] as unknown[]) : [];
    const workflowId = m[2] as string;
    const workflow = workflows.find((w) => w[0] === workflowId);
    const refs: string[] = [];
    uuidsIn(details[15], refs);
    return {
      mediaId: m[0] as string,
      workflowId,
      projectId: workflow === undefined ? null : (workflow[4] as string),
      seed: typeof details[1] === 'number' ? details[1] : null,
      prompt: typeof details[7] === 'string' ? details[7] : null,
      url: typeof details[13] === 'string' ? details[13] : null,
      width: typeof size[0] === 'number' ? size[0] : null,
      height: typeof size[1] === 'number' ? size[1] : null,
      referenceIds: refs,
      title:
        typeof (workflow?.[3] as unknown[] | undefined)?.[0] === 'string'
          ? ((workflow?.[3] as string[])[0] ?? null)
          : null,
    };
  });
}
