import { BadParameterError } from '@gflow/errors';
import type { OpenTimeouts } from '../composer/openProject.js';
import type { OpContext } from '../session/opContext.js';
import type { TapEvent } from '../session/wireTap.js';
import { isUuid } from '../wire/uuid.js';
import { type VideoRecord, findVideoRecords } from '../wire/videoRecords.js';
import { type ImageListing, readImageListing } from './imageListing.js';
import { left, paceOf, untilPendingSettles, untilReplyFits } from './lookAgain.js';
import { CLOCK_SLACK_MS, incompleteListing, listProjectClips } from './projectListing.js';
import type { FindSubmittedRequest, SubmittedLookup } from './types.js';

/**
 * How long after the click Flow may still be making what a submit asked for before listing it: a
 * policy over measured times (flow-wire §3: the image reply ~20 s, as a project load may show an
 * image only once it is done; a clip's submit reply ~4 s, listed from then), three times over.
 * Until then "nothing new" is not yet an answer: the project is looked at again.
 */
export const LISTED_WITHIN_MS = { image: 60_000, video: 15_000 } as const;

/** Bad input gets a clear error before anything is opened (exit 2); the session checks it before the operation runs. */
export function checkFindRequest(req: FindSubmittedRequest): void {
  if (req.kind !== 'image' && req.kind !== 'video') throw new BadParameterError('kind must be image or video.');
  if (!isUuid(req.projectId)) throw new BadParameterError('projectId must be a Flow project id (a UUID).');
  if (!Number.isInteger(req.count) || req.count < 1 || req.count > 4)
    throw new BadParameterError('count must be a whole number from 1 to 4.');
  if (!Number.isFinite(req.since) || req.since <= 0)
    throw new BadParameterError('since must be a time (ms since the epoch).');
  if (!Number.isFinite(req.timeoutMs) || req.timeoutMs <= 0) throw new BadParameterError('timeoutMs must be positive.');
  if (req.listedWithinMs !== undefined && !(req.listedWithinMs >= 0))
    throw new BadParameterError('listedWithinMs must not be negative.');
}

/**
 * The answer once the listing is settled (pure): more new media than asked is ambiguous at once
 * (a later look only adds); exactly as many is found; fewer is an answer only once the submit is
 * old enough that Flow would list what it made (`listedByNow`) — none, or ambiguous with some.
 * Undefined: look again.
 */
export function judge(
  candidates: readonly string[],
  workflowIds: readonly string[],
  state: { readonly count: number; readonly settled: boolean; readonly listedByNow: boolean },
): SubmittedLookup | undefined {
  if (candidates.length > state.count) return { kind: 'ambiguous', mediaIds: [...candidates] };
  if (!state.settled) return undefined;
  if (candidates.length === state.count)
    return { kind: 'found', mediaIds: [...candidates], workflowIds: [...workflowIds] };
  if (!state.listedByNow) return undefined;
  return candidates.length === 0 ? { kind: 'none' } : { kind: 'ambiguous', mediaIds: [...candidates] };
}

/** A clip this submit may have made (pure): new, made after the click, with its prompt (mentions append names). */
export function isCandidateClip(r: VideoRecord, req: FindSubmittedRequest): boolean {
  if (req.knownMediaIds.includes(r.mediaId) || r.projectId !== req.projectId) return false;
  if (r.createdAt !== null && r.createdAt < req.since - CLOCK_SLACK_MS) return false;
  return r.prompt === req.prompt || (r.prompt !== null && r.prompt.startsWith(`${req.prompt} `));
}

/** The images this submit may have made (pure): finished or pending tiles with ids the caller does not know. */
export function candidateImages(seen: ImageListing, known: readonly string[]): string[] {
  return [...new Set([...seen.finished.keys(), ...seen.pendingIds])].filter((id) => !known.includes(id));
}

function listedByNow(req: FindSubmittedRequest): boolean {
  return Date.now() >= req.since + (req.listedWithinMs ?? LISTED_WITHIN_MS[req.kind]);
}

function unsettled(ctx: OpContext, req: FindSubmittedRequest, what: string): Error {
  return ctx.timeout(
    `Flow may still be making the ${req.kind} of this submit: ${what} within ${Math.round(req.timeoutMs / 1000)} s; look again later`,
  );
}

async function findImages(ctx: OpContext, req: FindSubmittedRequest, timeouts: OpenTimeouts, deadline: number) {
  for (let look = 0; ; look += 1) {
    const seen = await readImageListing(ctx, req.projectId, timeouts);
    const candidates = candidateImages(seen, req.knownMediaIds);
    const settled = seen.unsettled === 0;
    const verdict = judge(candidates, [], { count: req.count, settled, listedByNow: listedByNow(req) });
    if (verdict !== undefined) return verdict;
    if (left(deadline) === 0)
      throw unsettled(
        ctx,
        req,
        settled ? 'the project listed no new image' : `${seen.unsettled} pending tile(s) did not settle`,
      );
    await untilPendingSettles(ctx, seen.grid.pending.length, Math.min(paceOf(look), left(deadline)));
  }
}

async function findClips(ctx: OpContext, req: FindSubmittedRequest, timeouts: OpenTimeouts, deadline: number) {
  const fits = (event: TapEvent): boolean =>
    event.type === 'response' &&
    (event.value.envelope?.items ?? []).some((item) =>
      findVideoRecords(item.payload).some((r) => isCandidateClip(r, req)),
    );
  for (let look = 0; ; look += 1) {
    const listing = await listProjectClips(ctx, req.projectId, timeouts);
    if (!listing.complete) throw incompleteListing(req.projectId, 'the submit');
    const clips = [...listing.clips.values()].filter((r) => isCandidateClip(r, req));
    const ids = clips.map((r) => r.mediaId);
    const verdict = judge(
      ids,
      clips.map((r) => r.workflowId),
      { count: req.count, settled: true, listedByNow: listedByNow(req) },
    );
    if (verdict !== undefined) return verdict;
    if (left(deadline) === 0) throw unsettled(ctx, req, `the project listed ${ids.length} of ${req.count} new clip(s)`);
    await untilReplyFits(ctx, fits, Math.min(paceOf(look), left(deadline)));
  }
}

/**
 * Finds the media of a submit whose reply was never read (its ids unknown) in its project's
 * listing, generalising the lost-reply follower: the project is loaded afresh so the page lists
 * what it holds — clips by their records (`jwpduf`, `as29s`), narrowed by prompt and click time;
 * images by the grid's tiles — and looked at again while something there is pending or the
 * submit is too recent to be sure. Never submits anything.
 */
export async function findSubmitted(
  ctx: OpContext,
  req: FindSubmittedRequest,
  timeouts: OpenTimeouts,
): Promise<SubmittedLookup> {
  const deadline = Date.now() + req.timeoutMs;
  ctx.report({ phase: 'opening', projectId: req.projectId });
  const lookup =
    req.kind === 'video'
      ? await findClips(ctx, req, timeouts, deadline)
      : await findImages(ctx, req, timeouts, deadline);
  ctx.logger.info('looked for the media of a submit whose reply was never read', {
    projectId: req.projectId,
    kind: req.kind,
    lookup: lookup.kind,
  });
  return lookup;
}
