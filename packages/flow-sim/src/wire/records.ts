import { signedUrl } from '../media/signedUrl.js';
import type { Media } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import { mp4For } from '../media/catalogMedia.js';

export function timestamp(ms: number): [number, number] {
  return [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
}

export function promptStruct(prompt: string): unknown[] {
  return [null, null, [[[prompt]]]];
}

/** Video status at `now`: 6 submitted, 2 running, 3 done, anything else failed. */
export function videoStatus(media: Media, now: number): number {
  const job = media.video;
  if (job === undefined) return 3;
  if (now < job.runningAt) return 6;
  if (job.stuck || now < job.doneAt) return 2;
  return job.finalStatus;
}

/** Whether a generated image exists in full at `now` (its reply time has come); other media always. */
export function imageReady(media: Media, now: number): boolean {
  return media.readyAt === undefined || now >= media.readyAt;
}

export function videoUrlsReady(media: Media, now: number): boolean {
  const job = media.video;
  return job !== undefined && job.finalStatus === 3 && !job.stuck && !job.withoutUrl && now >= job.urlAt;
}

/** The record's fourth slot (flow-captures.md §5): `null` since 2026-10-06, `"CAE"` before; never keyed on. */
function recordMarker(state: SimState): string | null {
  return state.variants.recordMarker === 'null' ? null : state.variants.recordMarker;
}

export interface RecordOptions {
  /** Whether this reply may carry the signed URLs once they exist: `as29s` does; `jwpduf` only in the `poll` variant (§4). */
  readonly urls: boolean;
}

/**
 * The video record shared by YhhmEf, jwpduf and as29s:
 * `[workflowId, projectId, mediaId, MARKER, null, DETAILS, null, MEDIA_INFO]`. A finished clip
 * reports status 3 and its mp4 byte size at once; its signed URLs exist 2–8 s later and only
 * replies that carry URLs show them (flow-captures.md §4).
 */
export function videoRecord(state: SimState, media: Media, now: number, options: RecordOptions): unknown[] {
  const job = media.video;
  const status = videoStatus(media, now);
  const ready = options.urls && status === 3 && videoUrlsReady(media, now);
  const mediaId = media.id;
  let posterUrl: string | null = null;
  let mp4Url: string | null = null;
  const size =
    status === 3
      ? mp4For(state, media, mediaId.endsWith('_upsampled')).length + (job?.sizeMismatch === true ? 12_345 : 0)
      : null;
  if (ready) {
    posterUrl = signedUrl(state, `/image/${mediaId}`);
    // An extension's clip is served under its workflow id (flow-captures.md §10: `/video/<workflow_id>?Expires=…`).
    mp4Url = signedUrl(state, `/video/${job?.extendsFrom === undefined ? mediaId : media.workflowId}`);
    if (job?.swapped === true) [posterUrl, mp4Url] = [mp4Url, posterUrl];
  }
  const details: unknown[] = new Array<unknown>(14).fill(null);
  details[0] = timestamp(media.createdAt);
  details[1] = media.prompt;
  details[6] = [null, [[media.model, 1, null, null, media.aspectIndex, 1]], [promptStruct(media.prompt)], null, 1];
  details[8] = [status];
  details[9] = 1;
  if (ready) {
    details[10] = posterUrl;
    details[11] = [];
  }
  if (size !== null) details[13] = size;
  if (status !== 3 && status !== 2 && status !== 6)
    details[12] = [job?.finalStatus === 7 ? 'PUBLIC_ERROR_CONTENT_POLICY' : 'UNKNOWN'];
  const info: unknown[] = new Array<unknown>(17).fill(null);
  info[1] = 926545;
  info[7] = media.prompt;
  info[8] = ready ? mp4Url : null;
  info[12] = media.model;
  info[16] = media.aspectIndex;
  return [
    media.workflowId,
    media.projectId,
    mediaId,
    recordMarker(state),
    null,
    details,
    null,
    [info, [null, null, [job?.seconds ?? 8]], [media.workflowId]],
  ];
}

/** The workflow summary that submit replies carry: `[mediaId, null, null, [title, [ts], …, workflowId, …], projectId]`. */
export function workflowSummary(media: Media): unknown[] {
  return [
    media.id,
    null,
    null,
    [media.name, timestamp(media.createdAt), null, null, media.workflowId, 'batch'],
    media.projectId,
  ];
}

/** Image MEDIA: `[mediaId, null, workflowId, null, null, null, [DETAILS, null, [w, h]]]`. */
export function imageMedia(state: SimState, media: Media, refIds: string[]): unknown[] {
  const details: unknown[] = new Array<unknown>(16).fill(null);
  details[0] = timestamp(media.createdAt);
  details[1] = media.seed;
  details[3] = media.model;
  details[4] = media.aspectIndex;
  details[7] = media.prompt;
  details[13] = signedUrl(state, `/image/${media.id}`);
  details[15] = [null, null, [[media.prompt]], refIds.map((id) => [[null, 1, id]])];
  return [media.id, null, media.workflowId, null, null, null, [details, null, [media.width, media.height]]];
}

/** Image WORKFLOW: `[workflowId, null, null, [title, [ts], null, null, mediaId, "batch", [ts]], projectId]`. */
export function imageWorkflow(media: Media): unknown[] {
  const ts = timestamp(media.createdAt);
  return [media.workflowId, null, null, [media.name, ts, null, null, media.id, 'batch', ts], media.projectId];
}
