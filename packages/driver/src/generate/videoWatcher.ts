import { ContentPolicyError, FlowAppError, WireFormatError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import type { TapEvent } from '../session/wireTap.js';
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
  const latest = new Map<string, VideoRecord>();
  let doneWithoutUrlSince: number | null = null;
  let lastStatus: number | null = null;
  const absorb = (records: readonly VideoRecord[]): void => {
    for (const r of recordsForJob(records, job))
      if (supersedes(latest.get(r.workflowId), r)) latest.set(r.workflowId, r);
  };
  const verdict = (): VideoRecord[] | undefined => {
    const records = job.workflowIds.map((id) => latest.get(id));
    const status = records[0]?.status ?? null;
    if (status !== lastStatus && status !== null) {
      lastStatus = status;
      ctx.report({
        phase: 'generating',
        projectId: job.projectId,
        mediaIds: job.mediaIds,
        workflowIds: job.workflowIds,
        status,
      });
    }
    if (records.every((r): r is VideoRecord => r !== undefined && isTerminal(r))) return records;
    const waitingForUrl = records.some(
      (r) => r !== undefined && videoPhase(r.status) === 'done' && r.videoUrl === null,
    );
    if (waitingForUrl) {
      doneWithoutUrlSince ??= Date.now();
      if (Date.now() - doneWithoutUrlSince >= urlGraceMs) {
        const id = records.find((r) => r !== undefined && r.videoUrl === null)?.mediaId;
        throw new WireFormatError(
          `Flow reports the clip done but sent no mp4 URL within ${Math.round(urlGraceMs / 1000)} s; the clip exists in the project and may be recoverable by its media id.`,
          {
            retryable: false,
            extensions: {
              ...ctx.spendExtensions(),
              ...(id === undefined ? {} : { flow_media_id: id }),
              flow_project_id: job.projectId,
            },
          },
        );
      }
    }
    return undefined;
  };
  absorb(initial);
  for (const response of ctx.tap.responses) {
    if (response.seq <= sinceSeq || response.envelope === null) continue;
    for (const item of response.envelope.items) absorb(findVideoRecords(item.payload));
  }
  const first = verdict();
  if (first !== undefined) return first;
  const remaining = deadline - Date.now();
  const records = await ctx.waitForTap(
    (event: TapEvent) => {
      if (event.type === 'response' && event.value.envelope !== null) {
        for (const item of event.value.envelope.items) absorb(findVideoRecords(item.payload));
      }
      return verdict();
    },
    Math.max(0, remaining),
    () =>
      ctx.timeout(
        `The video was not terminal in time (last status ${latest.get(job.workflowIds[0] ?? '')?.status ?? 'unknown'})`,
      ),
    'waiting for the video',
  );
  return records;
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
