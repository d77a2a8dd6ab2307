import { WireFormatError, hasErrorCode } from '@gflow/errors';
import { readVideoKey } from '@gflow/flow-facts';
import type { OpenTimeouts } from '../composer/openProject.js';
import { CLOCK_SLACK_MS, listProjectClips } from '../recover/projectListing.js';
import type { OpContext } from '../session/opContext.js';
import type { VideoRecord } from '../wire/videoRecords.js';

/** A video run whose submit reply could not be read, and what identifies its clip. */
export interface LostSubmit {
  readonly projectId: string;
  readonly prompt: string;
  readonly mode: 't2v' | 'i2v' | 'r2v';
  readonly count: number;
  /** Files this run uploaded (frames or references). */
  readonly uploadedFiles: number;
  /** Saved characters this run attached. */
  readonly characters: number;
  /** `@` mentions typed after the prompt (references and characters): the clip's prompt then carries their names too. */
  readonly mentions: number;
  /** The key the submit body carried (checked by the guard before it left). */
  readonly modelKey: string | null;
  /** When the submit was clicked (ms since the epoch). */
  readonly clickedAt: number;
}

/**
 * Whether a lost reply may be followed to its clip (seed 000, #1112 / #1141): a run that uploaded
 * a file, or a one-clip text-to-video run. Text-to-video with count above 1 and a character-only
 * run are not (their clip cannot be told apart with certainty).
 */
export function lostReplyFollowable(lost: LostSubmit): boolean {
  if (lost.count !== 1) return false;
  if (lost.uploadedFiles > 0) return true;
  return lost.mode === 't2v' && lost.characters === 0;
}

/** The run cannot be named: WireFormatError (7, not retryable, may have spent). */
function unnamed(ctx: OpContext, lost: LostSubmit, why: string): WireFormatError {
  return new WireFormatError(
    `The submit reply could not be read and ${why}, so the run cannot be named. Credits may have been spent; look in the Flow project.`,
    { retryable: false, extensions: { ...ctx.spendExtensions(), flow_project_id: lost.projectId } },
  );
}

/**
 * Finds the clip of a submit whose reply was lost: loads the project afresh so the page lists its
 * clips itself (recover/projectListing.ts: the resumed `jwpduf` polls and the `@` picker's `as29s`),
 * then takes the one clip created after the click with exactly the prompt and the model family of
 * the submit body. None, or more than one, is WireFormatError (7, not retryable, may have spent) —
 * the run cannot be named.
 */
export async function followLostSubmit(ctx: OpContext, lost: LostSubmit, timeouts: OpenTimeouts): Promise<VideoRecord> {
  ctx.logger.warn('the submit reply could not be read; following the clip through the project listing', {
    projectId: lost.projectId,
  });
  const listing = await listProjectClips(ctx, lost.projectId, timeouts).catch((error: unknown) => {
    if (hasErrorCode(error, 'cancelled') || hasErrorCode(error, 'browser-session-closed')) throw error;
    throw unnamed(
      ctx,
      lost,
      `the project could not be listed: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const family = lost.modelKey === null ? null : readVideoKey(lost.modelKey).family;
  const promptMatches = (text: string | null): boolean =>
    text === lost.prompt || (lost.mentions > 0 && text !== null && text.startsWith(`${lost.prompt} `));
  const matches = (r: VideoRecord): boolean =>
    promptMatches(r.prompt) &&
    (r.createdAt === null || r.createdAt >= lost.clickedAt - CLOCK_SLACK_MS) &&
    (family === null || r.modelKey === null || readVideoKey(r.modelKey).family === family);
  const clips = [...listing.clips.values()].filter(matches);
  if (clips.length !== 1)
    throw unnamed(
      ctx,
      lost,
      `the project lists ${clips.length === 0 ? 'no clip' : `${clips.length} clips`} with this prompt made after the click`,
    );
  ctx.logger.info('followed a lost submit reply to its clip', { mediaId: clips[0]?.mediaId });
  return clips[0] as VideoRecord;
}
