import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import type { OpenTimeouts } from '../composer/openProject.js';
import type { FlowGenerationResult, GeneratedItem } from '../generate/types.js';
import { splitOutcomes, watchVideoJob } from '../generate/videoWatcher.js';
import type { OpContext } from '../session/opContext.js';
import { isUuid } from '../wire/uuid.js';
import type { VideoRecord } from '../wire/videoRecords.js';
import { signedImageUrl } from './gridTiles.js';
import { readImageListing } from './imageListing.js';
import { left, paceOf, untilPendingSettles } from './lookAgain.js';
import { incompleteListing, listProjectClips } from './projectListing.js';
import type { FollowMediaRequest } from './types.js';

/** Bad input gets a clear error before anything is opened (exit 2); the session checks it before the operation runs. */
export function checkFollowRequest(req: FollowMediaRequest): void {
  if (req.kind !== 'image' && req.kind !== 'video') throw new BadParameterError('kind must be image or video.');
  if (!isUuid(req.projectId)) throw new BadParameterError('projectId must be a Flow project id (a UUID).');
  if (req.mediaIds.length === 0 || !req.mediaIds.every(isUuid))
    throw new BadParameterError('mediaIds must name at least one Flow media id (UUIDs).');
  if ((req.workflowIds ?? []).some((id) => !isUuid(id))) throw new BadParameterError('workflowIds must be UUIDs.');
  if (!Number.isFinite(req.timeoutMs) || req.timeoutMs <= 0) throw new BadParameterError('timeoutMs must be positive.');
}

function notInProject(projectId: string, missing: readonly string[], kind: 'image' | 'video'): ReferenceNotFoundError {
  return new ReferenceNotFoundError(
    `The Flow project ${projectId} lists no ${kind} with media id ${missing.join(', ')}.`,
    { extensions: { flow_project_id: projectId, flow_media_id: missing[0] } },
  );
}

/**
 * A clip already submitted, followed through the page's own polls after a fresh load of its
 * project (the lost-reply follower's listing): done WITH its URL, or failed as a generation fails
 * (ContentPolicyError / FlowAppError). A media id the project does not list is ReferenceNotFoundError.
 */
async function followClips(
  ctx: OpContext,
  req: FollowMediaRequest,
  timeouts: OpenTimeouts,
  deadline: number,
): Promise<GeneratedItem[]> {
  const { projectId } = req;
  const listing = await listProjectClips(ctx, projectId, timeouts);
  if (!listing.complete) throw incompleteListing(projectId, 'following its clips');
  const missing = req.mediaIds.filter((id) => !listing.clips.has(id));
  if (missing.length > 0) throw notInProject(projectId, missing, 'video');
  const initial = req.mediaIds.map((id) => listing.clips.get(id) as VideoRecord);
  const workflowIds = initial.map((r) => r.workflowId);
  if (req.workflowIds !== undefined && workflowIds.some((id) => !req.workflowIds?.includes(id)))
    ctx.logger.warn('the project records name other workflow ids than the caller gave', { workflowIds });
  const job = { workflowIds, mediaIds: [...req.mediaIds], projectId };
  ctx.report({ phase: 'generating', projectId, mediaIds: job.mediaIds, workflowIds });
  const records = await watchVideoJob(ctx, job, initial, deadline, {
    urlGraceMs: timeouts.urlGraceMs,
    sinceSeq: listing.sinceSeq,
  });
  return splitOutcomes(ctx, records, projectId).map((r): GeneratedItem => ({
    mediaId: r.mediaId,
    workflowId: r.workflowId,
    prompt: req.prompt,
    modelKey: r.modelKey ?? '',
    url: r.videoUrl ?? '',
    ...(r.posterUrl === null ? {} : { posterUrl: r.posterUrl }),
    ...(r.byteSize === null ? {} : { byteSize: r.byteSize }),
  }));
}

/**
 * Images already submitted: done once the project's grid shows their tiles (a per-load snapshot,
 * so the project is loaded again while one is pending), each URL the signed one behind its tile.
 * An id neither shown nor possibly behind a pending tile is ReferenceNotFoundError.
 */
async function followImages(
  ctx: OpContext,
  req: FollowMediaRequest,
  timeouts: OpenTimeouts,
  deadline: number,
): Promise<GeneratedItem[]> {
  const { projectId } = req;
  for (let look = 0; ; look += 1) {
    const seen = await readImageListing(ctx, projectId, timeouts);
    const waiting = req.mediaIds.filter((id) => !seen.finished.has(id));
    if (waiting.length === 0) {
      const items: GeneratedItem[] = [];
      for (const mediaId of req.mediaIds) {
        const url = await signedImageUrl(ctx.page, seen.finished.get(mediaId) ?? '', mediaId);
        items.push({ mediaId, workflowId: null, prompt: req.prompt, modelKey: '', url });
      }
      return items;
    }
    const unaccounted = waiting.filter((id) => !seen.pendingIds.includes(id));
    if (unaccounted.length > 0 && seen.unsettled === 0) throw notInProject(projectId, unaccounted, 'image');
    if (left(deadline) === 0)
      throw ctx.timeout(`The image${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} still showed as pending`);
    ctx.report({ phase: 'generating', projectId, mediaIds: [...req.mediaIds] });
    await untilPendingSettles(ctx, seen.grid.pending.length, Math.min(paceOf(look), left(deadline)));
  }
}

/**
 * Follows media a submit already created (ids known) to a state it can be downloaded in: the
 * result a generation would have returned, `recovered: true`, with no submit of its own.
 */
export async function followMedia(
  ctx: OpContext,
  req: FollowMediaRequest,
  timeouts: OpenTimeouts,
): Promise<FlowGenerationResult> {
  const deadline = Date.now() + req.timeoutMs;
  const { projectId } = req;
  ctx.report({ phase: 'opening', projectId, mediaIds: [...req.mediaIds] });
  const items =
    req.kind === 'video'
      ? await followClips(ctx, req, timeouts, deadline)
      : await followImages(ctx, req, timeouts, deadline);
  const workflowIds = items.flatMap((i) => (i.workflowId === null ? [] : [i.workflowId]));
  ctx.report({ phase: 'done', projectId, mediaIds: items.map((i) => i.mediaId), workflowIds });
  return { projectId, items, submitRpc: '', submitBody: '', uploads: [], recovered: true, arm: 'classic' };
}
