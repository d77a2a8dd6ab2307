import { WireFormatError, isGflowError } from '@gflow/errors';
import type { OpenTimeouts } from '../composer/openProject.js';
import type { OpContext } from '../session/opContext.js';
import { type VideoRecord, findVideoRecords, findWorkflowSummaries } from '../wire/videoRecords.js';
import { type LostSubmit, followLostSubmit, lostReplyFollowable } from './lostReply.js';
import { type GuardedSubmit, awaitReply } from './submitWatcher.js';
import type { GeneratedItem } from './types.js';
import { splitOutcomes, watchVideoJob } from './videoWatcher.js';

/** The clips a video submit started, as its reply (or, lost, the project's listing) named them. */
export interface StartedClips {
  readonly initial: VideoRecord[];
  readonly workflowIds: string[];
  readonly mediaIds: string[];
  readonly recovered: boolean;
  /** media id → the title the reply's workflow summary gives the clip (what Flow's library lists it by). */
  readonly titles: ReadonlyMap<string, string>;
}

/**
 * Whether a submit whose reply could not be read is followed to its clip (#1112, #1141): an
 * unreadable reply, or `MZZa6b` answering [5] with no payload while a one-clip job is queued
 * (flow-captures.md §9, measured with a character).
 */
function followable(error: unknown, lost: LostSubmit): boolean {
  if (!isGflowError(error)) return false;
  if (error.extensions['reply_unreadable'] === true && lostReplyFollowable(lost)) return true;
  return error.extensions['flow_rpc'] === 'MZZa6b' && error.extensions['flow_status'] === 5 && lost.count === 1;
}

/** Reads the submit's reply for the clips it started; a lost reply is followed where the run can be named. */
export async function startedClips(
  ctx: OpContext,
  seen: GuardedSubmit,
  lost: Omit<LostSubmit, 'modelKey' | 'clickedAt'>,
  timeouts: OpenTimeouts & { readonly jobMs: number },
): Promise<StartedClips> {
  let initial: VideoRecord[];
  let summaries: ReturnType<typeof findWorkflowSummaries> = [];
  let recovered = false;
  try {
    const payload = await awaitReply(ctx, seen, Math.min(60_000, Math.max(1_000, timeouts.jobMs)));
    initial = findVideoRecords(payload);
    summaries = findWorkflowSummaries(payload);
  } catch (error) {
    const full: LostSubmit = { ...lost, modelKey: seen.verdict.modelKey, clickedAt: seen.clickedAt };
    if (!followable(error, full)) throw error;
    initial = [await followLostSubmit(ctx, full, timeouts)];
    recovered = true;
  }
  const workflowIds = [...new Set([...initial.map((r) => r.workflowId), ...summaries.map((s) => s.workflowId)])];
  const mediaIds = [...new Set([...initial.map((r) => r.mediaId), ...summaries.map((s) => s.mediaId)])];
  if (workflowIds.length === 0)
    throw new WireFormatError(`The ${seen.call.rpcId} reply names no workflow or media id.`, {
      retryable: false,
      extensions: ctx.spendExtensions(),
    });
  const titles = new Map(summaries.flatMap((s) => (s.title === null ? [] : [[s.mediaId, s.title] as const])));
  return { initial, workflowIds, mediaIds, recovered, titles };
}

/** Follows the started clips to their terminal records (the page's own polls) and makes them items. */
export async function finishedClips(
  ctx: OpContext,
  run: {
    readonly seen: GuardedSubmit;
    readonly started: StartedClips;
    readonly projectId: string;
    readonly prompt: string;
    readonly timeoutMs: number;
    readonly urlGraceMs: number;
    readonly sinceSeq: number;
  },
): Promise<{ readonly items: GeneratedItem[]; readonly projectId: string }> {
  const { seen, started, projectId } = run;
  const { mediaIds, workflowIds } = started;
  ctx.report({ phase: 'submitted', projectId, mediaIds, workflowIds, submitRpc: seen.call.rpcId });
  const job = { workflowIds: started.workflowIds, mediaIds: started.mediaIds, projectId };
  const records = await watchVideoJob(ctx, job, started.initial, seen.clickedAt + run.timeoutMs, {
    urlGraceMs: run.urlGraceMs,
    sinceSeq: run.sinceSeq,
  });
  const done = splitOutcomes(ctx, records, projectId);
  const submittedKey = seen.verdict.modelKey;
  const items = done.map((r): GeneratedItem => {
    if (submittedKey !== null && r.modelKey !== null && r.modelKey !== submittedKey)
      ctx.logger.warn('the record names another model key than the submit body', {
        record: r.modelKey,
        body: submittedKey,
      });
    return {
      mediaId: r.mediaId,
      workflowId: r.workflowId,
      prompt: r.prompt ?? run.prompt,
      modelKey: r.modelKey ?? submittedKey ?? '',
      url: r.videoUrl ?? '',
      ...(started.titles.has(r.mediaId) ? { displayName: started.titles.get(r.mediaId) as string } : {}),
      ...(r.posterUrl === null ? {} : { posterUrl: r.posterUrl }),
      ...(r.byteSize === null ? {} : { byteSize: r.byteSize }),
    };
  });
  return { items, projectId: done[0]?.projectId ?? projectId };
}
