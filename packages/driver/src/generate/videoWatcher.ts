import { ContentPolicyError, FlowAppError, WireFormatError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import type { TapEvent, TappedResponse } from '../session/wireTap.js';
import {
  type VideoRecord,
  findVideoRecords,
  isTerminal,
  recordsForJob,
  supersedes,
  videoPhase,
} from '../wire/videoRecords.js';

/** How long a done record may lack its mp4 URL before the driver gives up (flow-wire §3a). */
export const URL_GRACE_MS = 20_000;

export interface VideoJob {
  readonly workflowIds: readonly string[];
  readonly mediaIds: readonly string[];
  readonly projectId: string;
}

/** One job's records as they come: the most finished record per clip, the status last told, the URL grace. */
class JobWatch {
  readonly #latest = new Map<string, VideoRecord>();
  #doneWithoutUrlSince: number | null = null;
  #lastStatus: number | null = null;

  constructor(
    private readonly ctx: OpContext,
    private readonly job: VideoJob,
    private readonly urlGraceMs: number,
  ) {}

  /** Takes the job's records from a payload; a clip's record never gives way to a less finished one. */
  absorb(records: readonly VideoRecord[]): void {
    for (const r of recordsForJob(records, this.job))
      if (supersedes(this.#latest.get(r.workflowId), r)) this.#latest.set(r.workflowId, r);
  }

  /** The terminal records in job order once every clip is terminal; undefined until then. */
  verdict(): VideoRecord[] | undefined {
    const records = this.job.workflowIds.map((id) => this.#latest.get(id));
    this.#tell(records[0]?.status ?? null);
    if (records.every((r): r is VideoRecord => r !== undefined && isTerminal(r))) return records;
    const waiting = records.find((r) => r !== undefined && videoPhase(r.status) === 'done' && r.videoUrl === null);
    if (waiting === undefined) return undefined;
    this.#doneWithoutUrlSince ??= Date.now();
    if (Date.now() - this.#doneWithoutUrlSince >= this.urlGraceMs) throw this.#noUrl(waiting.mediaId);
    return undefined;
  }

  /** The first clip's last status, for the timeout's words. */
  lastStatus(): number | string {
    return this.#latest.get(this.job.workflowIds[0] ?? '')?.status ?? 'unknown';
  }

  /** Reports a status the caller has not heard yet. */
  #tell(status: number | null): void {
    if (status === this.#lastStatus || status === null) return;
    this.#lastStatus = status;
    const { projectId, mediaIds, workflowIds } = this.job;
    this.ctx.report({ phase: 'generating', projectId, mediaIds, workflowIds, status });
  }

  #noUrl(mediaId: string): WireFormatError {
    return new WireFormatError(
      `Flow reports the clip done but sent no mp4 URL within ${Math.round(this.urlGraceMs / 1000)} s; the clip exists in the project and may be recoverable by its media id.`,
      {
        retryable: false,
        extensions: { ...this.ctx.spendExtensions(), flow_media_id: mediaId, flow_project_id: this.job.projectId },
      },
    );
  }
}

/** Every video record of a tapped response. */
const recordsOf = (response: TappedResponse): VideoRecord[] =>
  response.envelope === null ? [] : response.envelope.items.flatMap((item) => findVideoRecords(item.payload));

/**
 * Follows the page's own `jwpduf` / `as29s` replies (it adds no polling of its own) until every
 * clip of the job is terminal: failed, or done WITH the mp4 URL. Records of other clips are
 * ignored. Replies the tap already holds after `options.sinceSeq` are read first, so one that arrived
 * before the watch began (the URL of a clip followed after a lost submit reply, say) is not
 * missed: the page stops asking once it has the URL. Returns the terminal records in job order.
 */
export async function watchVideoJob(
  ctx: OpContext,
  job: VideoJob,
  initial: readonly VideoRecord[],
  deadline: number,
  options: { readonly urlGraceMs?: number; readonly sinceSeq?: number } = {},
): Promise<VideoRecord[]> {
  const { urlGraceMs = URL_GRACE_MS, sinceSeq = ctx.tap.seq } = options;
  const watch = new JobWatch(ctx, job, urlGraceMs);
  watch.absorb(initial);
  for (const response of ctx.tap.responses) if (response.seq > sinceSeq) watch.absorb(recordsOf(response));
  const first = watch.verdict();
  if (first !== undefined) return first;
  return ctx.waitForTap(
    (event: TapEvent) => {
      if (event.type === 'response') watch.absorb(recordsOf(event.value));
      return watch.verdict();
    },
    Math.max(0, deadline - Date.now()),
    () => ctx.timeout(`The video was not terminal in time (last status ${watch.lastStatus()})`),
    'waiting for the video',
  );
}

/** Turns failed records into an error; returns the done ones. */
export function splitOutcomes(ctx: OpContext, records: readonly VideoRecord[], projectId: string): VideoRecord[] {
  const done = records.filter((r) => videoPhase(r.status) === 'done');
  if (done.length > 0) {
    if (done.length < records.length) ctx.logger.warn('some clips failed', { failed: records.length - done.length });
    return done;
  }
  const failed = records[0];
  const reasons = records.flatMap((r) => r.failureReasons);
  const extensions = {
    ...ctx.spendExtensions(),
    flow_project_id: projectId,
    ...(failed === undefined ? {} : { flow_media_id: failed.mediaId, flow_status: failed.status }),
  };
  if (reasons.some((r) => /POLICY|SAFETY|BLOCKED|RAI/.test(r))) {
    throw new ContentPolicyError(`Flow refused the video (${reasons.join(', ')}).`, { retryable: false, extensions });
  }
  throw new FlowAppError(
    `Flow reports the video failed (status ${failed?.status ?? '?'}${reasons.length > 0 ? `, ${reasons.join(', ')}` : ''}).`,
    { retryable: false, extensions },
  );
}
