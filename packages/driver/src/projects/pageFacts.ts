import type { Page } from 'playwright-core';
import type { FlowGenerationResult, GeneratedItem } from '../generate/types.js';
import type { OpContext } from '../session/opContext.js';
import { isUuid } from '../wire/uuid.js';
import { TITLE_BUTTON } from './renameInPage.js';

/**
 * What a loaded project page says about the project and its media, as a person sees it: the
 * title in the editor's header ([U], the simulator's contract, the control `project rename`
 * drives) and, per grid tile (`flow-image-tile` / `flow-video-tile` `img[data-media-id]`,
 * flow-wire §4), the media id, the `/asb/` token of its picture (the same token as the `@`
 * picker's option for that asset) and the name the tile shows ([U]: its picture's alt text; a tile
 * may show none, then the picker is what names the asset).
 */
export interface PageFacts {
  /** The header's title, or null when the page shows none. */
  readonly title: string | null;
  readonly tiles: ReadonlyArray<{
    readonly mediaId: string;
    readonly token: string | null;
    readonly name: string | null;
  }>;
}

/** The tiles' pictures that carry a media id (finished images and clips). */
const TILE_PICTURES = 'flow-image-tile img[data-media-id], flow-video-tile img[data-media-id]';

/** Reads the title and the tiles as the page shows them now (no waiting: a per-load snapshot). */
export async function readPageFacts(page: Page): Promise<PageFacts> {
  const raw = await page.evaluate(
    // No named inner functions: this text runs in the page (pageFunctions.test.ts).
    ({ title, pictures }) => ({
      title: (document.querySelector(title)?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      tiles: Array.from(document.querySelectorAll(pictures)).map((img) => ({
        mediaId: img.getAttribute('data-media-id') ?? '',
        src: img.getAttribute('src') ?? '',
        name: (img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }),
    { title: TITLE_BUTTON, pictures: TILE_PICTURES },
  );
  return {
    title: raw.title === '' ? null : raw.title,
    tiles: raw.tiles
      .filter((t) => isUuid(t.mediaId))
      .map((t) => ({
        mediaId: t.mediaId,
        token: /\/asb\/([^/?#]+)/.exec(t.src)?.[1] ?? null,
        name: t.name === '' ? null : t.name,
      })),
  };
}

/** media id → the name its tile shows, for the tiles that show one. */
export function tileNames(facts: PageFacts): Map<string, string> {
  return new Map(facts.tiles.flatMap((t) => (t.name === null ? [] : [[t.mediaId, t.name] as const])));
}

/** Items without a display name get the one their tile shows, where it shows one. */
export function nameFromTiles(items: readonly GeneratedItem[], names: ReadonlyMap<string, string>): GeneratedItem[] {
  return items.map((item) =>
    item.displayName !== undefined || !names.has(item.mediaId)
      ? item
      : { ...item, displayName: names.get(item.mediaId) as string },
  );
}

/**
 * A generation's result with what its page says too: the project's title (the one a run's new
 * project was given, else the header's) and, for an item whose reply named none, the name its
 * tile shows. Never fails a run that Flow already finished: an unreadable page adds nothing.
 */
export async function withPageFacts(ctx: OpContext, result: FlowGenerationResult): Promise<FlowGenerationResult> {
  if (result.stopped !== undefined || ctx.closed) return result;
  const facts = await readPageFacts(ctx.page).catch(() => null);
  if (facts === null) return result;
  const onProject = facts.title !== null && ctx.page.url().includes(result.projectId);
  const projectTitle = ctx.projectTitle ?? (onProject ? facts.title : null);
  return {
    ...result,
    items: nameFromTiles(result.items, tileNames(facts)),
    ...(projectTitle === null ? {} : { projectTitle }),
  };
}
