import { type OpenTimeouts, openProject } from '../composer/openProject.js';
import type { OpContext } from '../session/opContext.js';
import { type VideoRecord, videoPhase } from '../wire/videoRecords.js';
import { type GridTiles, checkGridTiles, readGridTiles } from './gridTiles.js';
import { listClipsOnPage } from './projectListing.js';

/** The images a fresh load of a project shows, and how many of its pending tiles may still be images. */
export interface ImageListing {
  readonly grid: GridTiles;
  /** Finished image tiles: media id → picture URL. */
  readonly finished: ReadonlyMap<string, string>;
  /** Pending tiles that name a media id that is not a clip of the project: images still generating. */
  readonly pendingIds: readonly string[];
  /** Pending tiles that may be images but name none (or whose kind the page could not tell): wait for them. */
  readonly unsettled: number;
}

/**
 * Sorts a load's pending tiles (pure): a tile naming a clip's media id, or one of the clips still
 * generating, is a clip's; the others may be images. `clips` is null when the page could not list
 * its clips: then no pending tile can be told from a clip's.
 */
export function sortPending(grid: GridTiles, clips: ReadonlyMap<string, VideoRecord> | null): ImageListing {
  const named = grid.pending.filter((id): id is string => id !== null);
  const unnamed = grid.pending.length - named.length;
  if (clips === null) return { grid, finished: grid.images, pendingIds: [], unsettled: grid.pending.length };
  const pendingIds = named.filter((id) => !clips.has(id));
  // Clips pending at this load and shown without their id take as many unnamed pending tiles.
  const clipTiles = [...clips.values()].filter(
    (r) => (videoPhase(r.status) === 'submitted' || videoPhase(r.status) === 'running') && !named.includes(r.mediaId),
  ).length;
  return { grid, finished: grid.images, pendingIds, unsettled: Math.max(0, unnamed - clipTiles) };
}

/**
 * Loads a project afresh and reads its images from the grid (flow-wire §4: `flow-image-tile`
 * `img[data-media-id]`, pending `flow-pending-tile`). Only when some tile is pending does the
 * page list its clips too (the `@` picker's `as29s`), to tell a clip's pending tile from an image's.
 */
export async function readImageListing(
  ctx: OpContext,
  projectId: string,
  timeouts: OpenTimeouts,
): Promise<ImageListing> {
  const sinceSeq = ctx.tap.seq;
  await openProject(ctx, projectId, timeouts, { reuse: false });
  const grid = checkGridTiles(await readGridTiles(ctx.page), projectId);
  if (grid.pending.length === 0) return { grid, finished: grid.images, pendingIds: [], unsettled: 0 };
  const listing = await listClipsOnPage(ctx, sinceSeq);
  return sortPending(grid, listing.complete ? listing.clips : null);
}
