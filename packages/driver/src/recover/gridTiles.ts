import type { Page } from 'playwright-core';
import { WireFormatError } from '@gflow/errors';
import { isAllowedMediaUrl } from '../download/allowlist.js';
import { isUuid } from '../wire/uuid.js';

/**
 * What a project's grid shows of its images (flow-wire §4: `flow-image-tile` with
 * `img[data-media-id]`, pending `flow-pending-tile`). A per-load snapshot: a later load shows what
 * was pending then.
 */
export interface GridTiles {
  /** Finished image tiles: media id → the tile picture's absolute URL. */
  readonly images: ReadonlyMap<string, string>;
  /** Pending tiles (images and clips alike): the media id a tile carries, else null. */
  readonly pending: ReadonlyArray<string | null>;
}

interface RawTiles {
  readonly images: Array<{ id: string | null; src: string }>;
  readonly pending: Array<string | null>;
}

/** Reads the grid's image and pending tiles as the page shows them now. */
export async function readGridTiles(page: Page): Promise<RawTiles> {
  return page.evaluate(() => {
    // No named inner functions: this text runs in the page (pageFunctions.test.ts).
    const images = Array.from(document.querySelectorAll('flow-image-tile')).map((tile) => {
      const img = tile.querySelector('img[data-media-id]') as HTMLImageElement | null;
      return { id: img?.getAttribute('data-media-id') ?? null, src: img === null ? '' : img.currentSrc || img.src };
    });
    const pending = Array.from(document.querySelectorAll('flow-pending-tile')).map(
      (tile) =>
        tile.getAttribute('data-media-id') ||
        tile.querySelector('[data-media-id]')?.getAttribute('data-media-id') ||
        null,
    );
    return { images, pending };
  });
}

/**
 * Checks the tiles' shapes: an image tile without a media id, or an id or URL gflow cannot read,
 * is a grid gflow does not recognise (exit 7), never a guess. Pending tiles may carry no id.
 */
export function checkGridTiles(raw: RawTiles, projectId: string): GridTiles {
  const refuse = (what: string): WireFormatError =>
    new WireFormatError(`The project's grid shows ${what}, which gflow cannot read as an image of the project.`, {
      retryable: false,
      extensions: { flow_project_id: projectId },
    });
  const images = new Map<string, string>();
  for (const tile of raw.images) {
    if (!isUuid(tile.id))
      throw refuse(tile.id === null ? 'an image tile without a media id' : 'a tile with an unknown id');
    if (!isAllowedMediaUrl(tile.src)) throw refuse(`the tile of ${tile.id} without an https media URL`);
    images.set(tile.id, tile.src);
  }
  for (const id of raw.pending) if (id !== null && !isUuid(id)) throw refuse('a pending tile with an unknown id');
  return { images, pending: raw.pending };
}

/**
 * The signed URL behind a tile's picture: a grid tile loaded with the project shows an opaque
 * `/asb/<token>` that redirects to the signed CDN URL (flow-wire §4); the page follows it the way
 * its `<img>` does and the headers give the final URL (the body is not read). The final URL must be
 * on the media allowlist too.
 */
export async function signedImageUrl(page: Page, src: string, mediaId: string): Promise<string> {
  if (new URL(src).hostname === 'flow-content.google') return src;
  const outcome = await page.evaluate(async (target) => {
    try {
      const res = await fetch(target, { credentials: 'same-origin', redirect: 'follow', cache: 'no-store' });
      await res.body?.cancel();
      return { ok: res.ok, url: res.url, status: res.status };
    } catch (error) {
      return { ok: false, url: '', status: 0, error: String(error) };
    }
  }, src);
  if (outcome.ok && isAllowedMediaUrl(outcome.url)) return outcome.url;
  throw new WireFormatError(
    `The grid tile of image ${mediaId} did not lead to an allowed media URL (HTTP ${outcome.status}).`,
    { retryable: false, extensions: { flow_media_id: mediaId } },
  );
}
