import type { Locator, Page } from 'playwright-core';
import { ReferenceNotFoundError, UiSelectorDriftError, UpscaleUnavailableError } from '@gflow/errors';
import { waitForAnchor, withLigature } from '../projects/flowPage.js';
import { cssString } from '../auth/signInSteps.js';

export type TileKind = 'image' | 'video';

/**
 * A grid tile by its media id: `flow-image-tile` / `flow-video-tile` holding
 * `img[data-media-id="<id>"]` (flow-wire §4: grid tile images carry the media id).
 */
export function tileFor(page: Page, kind: TileKind, mediaId: string): Locator {
  return page
    .locator(kind === 'image' ? 'flow-image-tile' : 'flow-video-tile')
    .filter({ has: page.locator(`img[data-media-id="${cssString(mediaId)}"]`) });
}

/** Waits for the tile in the project's grid (a per-load snapshot); absent → ReferenceNotFoundError. */
export async function findTile(
  page: Page,
  kind: TileKind,
  mediaId: string,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<Locator> {
  const tile = tileFor(page, kind, mediaId);
  const grid = page.locator('flow-image-tile, flow-video-tile, flow-prompt-box, flow-asset-grid');
  if (!(await waitForAnchor(page, grid, wait)))
    throw new UiSelectorDriftError('The project editor never rendered its grid or composer.');
  if (!(await waitForAnchor(page, tile, { ...wait, timeoutMs: Math.min(wait.timeoutMs, 3_000) }))) {
    throw new ReferenceNotFoundError(`The project's grid shows no ${kind} with media id ${mediaId}.`, {
      extensions: { flow_media_id: mediaId },
    });
  }
  return tile.first();
}

/**
 * Opens the media's download menu and returns the entry whose text has `token` as a whole word
 * (`1K`, `2K`, `4K`, `270p`, `720p`, `1080p`; numeric tokens only, never the localised labels
 * such as "2K (Aprimorada)"). The menu lives in the tile's detail view, opened by clicking the
 * tile (flow-captures.md §8); the view's own DOM was not captured, so the download button is
 * found by its `download` ligature outside the grid tiles. A missing entry is drift (23); a
 * disabled one (a tier the account lacks, shown with an upgrade call to action) is
 * UpscaleUnavailableError (22).
 */
export async function menuEntry(page: Page, tile: Locator, token: string): Promise<Locator> {
  await tile.click({ timeout: 5_000 });
  const button = withLigature(
    page,
    page.locator('button:not(flow-image-tile button):not(flow-video-tile button)'),
    'download',
  )
    .filter({ visible: true })
    .first();
  await button.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
  if (!(await button.isVisible().catch(() => false)))
    throw new UiSelectorDriftError(
      "The media's detail view shows no download button (a button with the `download` icon).",
    );
  await button.click({ timeout: 5_000 });
  const items = page.locator('.cdk-overlay-pane [role="menu"] [role="menuitem"]');
  await items
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => undefined);
  const entry = items.filter({ hasText: new RegExp(`(^|[^0-9A-Za-z])${token}([^0-9A-Za-z]|$)`, 'i') }).first();
  if ((await entry.count()) === 0) {
    const offered = (await items.allTextContents().catch(() => [])).map((t) => t.trim()).join(', ');
    await page.keyboard.press('Escape').catch(() => undefined);
    throw new UiSelectorDriftError(`The download menu offers no ${token} entry (offered: ${offered || 'nothing'}).`);
  }
  const disabled = await entry.evaluate(
    (el) =>
      el.hasAttribute('disabled') ||
      el.getAttribute('aria-disabled') === 'true' ||
      el.classList.contains('mat-mdc-menu-item-disabled'),
  );
  if (disabled) {
    await page.keyboard.press('Escape').catch(() => undefined);
    throw new UpscaleUnavailableError(
      `Flow offers ${token} for this media but the entry is disabled on this account.`,
      {
        remediationHint:
          token.toUpperCase() === '4K'
            ? '4K upscale needs a Google AI Ultra plan; try 2k.'
            : `Flow does not offer ${token} for this media on this account.`,
      },
    );
  }
  return entry;
}
