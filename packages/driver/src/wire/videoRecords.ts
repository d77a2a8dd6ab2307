import { videoPhase } from '@gflow/flow-facts';
import { isUuid } from './uuid.js';

/**
 * The video record shared by YhhmEf, jwpduf and as29s, found by shape, not position
 * (flow-wire §3a): `[workflowId, projectId, mediaId, "CAE"|null|…, null, DETAILS, null, MEDIA_INFO]`.
 * The marker in slot [3] is not keyed on (it became nullable on 2026-10-06).
 */
export interface VideoRecord {
  readonly workflowId: string;
  readonly projectId: string;
  readonly mediaId: string;
  /** DETAILS[8][0]: 6 submitted, 2 running, 3 done; anything else failed. */
  readonly status: number | null;
  readonly prompt: string | null;
  readonly modelKey: string | null;
  /** MEDIA_INFO[0][8]: the signed mp4 URL once done. */
  readonly videoUrl: string | null;
  /** DETAILS[10]: the signed poster JPEG URL once done. */
  readonly posterUrl: string | null;
  /** DETAILS[13]: the mp4 byte size once done. */
  readonly byteSize: number | null;
  readonly aspectIndex: number | null;
  /** Any upper-case failure reasons the record carries (e.g. in DETAILS[12]). */
  readonly failureReasons: readonly string[];
  /** DETAILS[0] `[seconds, nanos]`: when Flow created the clip (ms since the epoch), if present. */
  readonly createdAt: number | null;
}

// The status numbers are a Flow fact: @gflow/flow-facts holds them (and the words for them).
export { VIDEO_STATUS, videoPhase, type VideoPhase } from '@gflow/flow-facts';

/** Terminal means failed, or done WITH the mp4 URL (flow-wire §3a). */
export function isTerminal(record: VideoRecord): boolean {
  const phase = videoPhase(record.status);
  return phase === 'failed' || (phase === 'done' && record.videoUrl !== null);
}

/**
 * Whether `next` may replace `prev` as what is known of one clip: a terminal record (failed, or
 * done with its URL) never gives way to a later one that is not, such as a poll that reports the
 * clip done without the URL a result fetch already brought (flow-captures.md §4).
 */
export function supersedes(prev: VideoRecord | undefined, next: VideoRecord): boolean {
  return prev === undefined || !isTerminal(prev) || isTerminal(next);
}

function isRecordShape(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length >= 6 &&
    isUuid(value[0]) &&
    isUuid(value[1]) &&
    isUuid(value[2]) &&
    Array.isArray(value[5]) &&
    (value[7] === undefined || value[7] === null || Array.isArray(value[7]))
  );
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function at(value: unknown, ...path: number[]): unknown {
  let cur = value;
  for (const i of path) {
    if (!Array.isArray(cur)) return undefined;
    cur = cur[i];
  }
  return cur;
}

function upperStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string' && /^[A-Z][A-Z0-9_]{3,}$/.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) upperStrings(v, out);
}

function createdAtOf(value: unknown): number | null {
  const seconds = Array.isArray(value) ? num(value[0]) : null;
  return seconds === null
    ? null
    : seconds * 1000 + Math.floor((Array.isArray(value) ? (num(value[1]) ?? 0) : 0) / 1_000_000);
}

function toRecord(raw: unknown[]): VideoRecord {
  const details = raw[5] as unknown[];
  const info = raw[7];
  const statusSlot = details[8];
  const status = Array.isArray(statusSlot) ? num(statusSlot[0]) : num(statusSlot);
  const failureReasons: string[] = [];
  upperStrings(details[12], failureReasons);
  const byteSize = num(details[13]);
  return {
    workflowId: raw[0] as string,
    projectId: raw[1] as string,
    mediaId: raw[2] as string,
    status,
    prompt: str(details[1]) ?? str(at(info, 0, 7)),
    modelKey: str(at(info, 0, 12)) ?? str(at(details, 6, 1, 0, 0)),
    videoUrl: str(at(info, 0, 8)),
    posterUrl: str(details[10]),
    byteSize,
    aspectIndex: num(at(info, 0, 16)),
    failureReasons,
    createdAt: createdAtOf(details[0]),
  };
}

/** Every video record anywhere in a decoded payload (depth-first, in order). */
export function findVideoRecords(payload: unknown, depth = 0): VideoRecord[] {
  if (depth > 8 || !Array.isArray(payload)) return [];
  if (isRecordShape(payload)) return [toRecord(payload)];
  const out: VideoRecord[] = [];
  for (const child of payload) out.push(...findVideoRecords(child, depth + 1));
  return out;
}

export interface VideoIds {
  readonly workflowIds?: readonly string[];
  readonly mediaIds?: readonly string[];
}

/** Records that belong to our job: a project-wide poll may list another clip first. */
export function recordsForJob(records: readonly VideoRecord[], ids: VideoIds): VideoRecord[] {
  return records.filter(
    (r) => (ids.workflowIds?.includes(r.workflowId) ?? false) || (ids.mediaIds?.includes(r.mediaId) ?? false),
  );
}

/** A clip as a submit reply's workflow summary names it. */
export interface WorkflowSummary {
  readonly mediaId: string;
  readonly workflowId: string;
  readonly projectId: string;
  /** `[3][0]`: the title Flow's library lists the clip by (flow-wire §3a), when it is a non-empty string. */
  readonly title: string | null;
}

/**
 * The workflow summaries of a submit reply, `[mediaId, null, null, [title, [ts], …, workflowId, …], projectId]`,
 * used when the reply carries no full record, and for the clips' titles (no record carries one).
 */
export function findWorkflowSummaries(payload: unknown, depth = 0): WorkflowSummary[] {
  if (depth > 6 || !Array.isArray(payload)) return [];
  if (isUuid(payload[0]) && Array.isArray(payload[3]) && isUuid(payload[4])) {
    const meta = payload[3] as unknown[];
    const workflowId = meta.find((v) => isUuid(v) && v !== payload[0]);
    const title = typeof meta[0] === 'string' && meta[0].trim() !== '' && !isUuid(meta[0]) ? meta[0] : null;
    if (isUuid(workflowId)) return [{ mediaId: payload[0], workflowId, projectId: payload[4], title }];
  }
  const out: WorkflowSummary[] = [];
  for (const child of payload) out.push(...findWorkflowSummaries(child, depth + 1));
  return out;
}
