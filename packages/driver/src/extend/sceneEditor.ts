import type { Locator } from 'playwright-core';
import { ExtendUnavailableError, ReferenceNotFoundError, VideoModelSelectionError } from '@gflow/errors';
import { type VideoModel, pickMenuCandidate } from '@gflow/flow-facts';
import { A, ASB_TOKEN, textsWithoutIcons, withIcon } from '../composer/anchors.js';
import { driftError } from '../composer/drift.js';
import { safeClick } from '../composer/safeClick.js';
import type { OpContext } from '../session/opContext.js';
import { findTile } from '../upscale/tileMenu.js';
import { untilDom } from '../util/domWait.js';

/**
 * The scene editor (flow-captures.md §10, `/project/<pid>/scene/<sid>`). Measured: its timeline's
 * `+` opens a menu with "Extend (Veo 3.1 - Lite)". Everything else about its DOM is [U], so the
 * driver anchors on what any layout must have — Material ligatures and roles, never words:
 * the `+` (`add` / `add_circle`), `[role=menu]` entries picked by the model's product name (never
 * translated), the one text field the entry opens and the submit beside it.
 */
export const SCENE = {
  plusIcons: ['add', 'add_circle'],
  /** The scene ligature: the toolbar's New scene (measured) and a detail view's scene button [U]. */
  sceneIcon: 'movie',
  /** The `+` menu's "Add clip" [U] (how a clip gets onto a scene was not captured). */
  addClipIcon: 'video_library',
  submitIcons: ['arrow_forward', 'send'],
  field: '[contenteditable="true"], textarea',
  menu: `${A.overlayPane} ${A.menu}`,
  option: `${A.overlayPane} [role="option"]`,
} as const;

const SCENE_PATH = /^\/project\/([^/?#]+)\/scene\/([^/?#]+)/;

/** The scene id of a scene editor URL of this project, else null. */
export function sceneIdOfUrl(url: string, projectId: string): string | null {
  try {
    const m = SCENE_PATH.exec(new URL(url).pathname);
    return m?.[1] === projectId && m[2] !== undefined ? decodeURIComponent(m[2]) : null;
  } catch {
    return null;
  }
}

function withAnyIcon(ctx: OpContext, base: Locator, icons: readonly string[]): Locator {
  const [first, ...rest] = icons;
  let out = withIcon(ctx.page, base, first ?? '');
  for (const icon of rest) out = out.or(withIcon(ctx.page, base, icon));
  return out;
}

/** The timeline's `+`: a button with an `add`/`add_circle` ligature outside the header and the overlays. */
function plusButton(ctx: OpContext): Locator {
  const buttons = ctx.page.locator('button:not(flow-app-header button):not(.cdk-overlay-container button)');
  return withAnyIcon(ctx, buttons, SCENE.plusIcons).filter({ visible: true }).last();
}

/** Waits for the scene editor of this project (its URL and its `+`); returns the scene id. */
export async function waitForScene(ctx: OpContext, projectId: string, timeoutMs: number): Promise<string> {
  const plus = plusButton(ctx);
  const sceneId = await untilDom(
    ctx.page,
    async () => {
      ctx.check('waiting for the scene editor');
      const id = sceneIdOfUrl(ctx.page.url(), projectId);
      return id !== null && (await plus.isVisible().catch(() => false)) ? id : undefined;
    },
    { timeoutMs, signal: ctx.signal },
  );
  if (sceneId === undefined)
    throw await driftError(
      ctx.page,
      'The scene editor did not open with its timeline + button',
      'button:has(mat-icon)',
    );
  return sceneId;
}

/**
 * Gets the source clip onto a scene and opens it, the way a person does ([U]: how a clip gets onto
 * a scene was not captured): the clip's detail view's scene button (`movie`) when it has one,
 * else the toolbar's New scene (`movie`, measured) and the timeline's "Add clip" picker, where the
 * clip is told apart by its grid tile's `/asb/` thumbnail token (the picker shows no media id).
 * The project page must be loaded afresh (tiles drawn at load carry the token). Returns the scene id.
 */
export async function openSceneHolding(
  ctx: OpContext,
  clip: { readonly projectId: string; readonly mediaId: string },
  timeoutMs: number,
): Promise<string> {
  const tile = await findTile(ctx.page, 'video', clip.mediaId, { signal: ctx.signal, timeoutMs });
  const token = ASB_TOKEN.exec(
    (await tile
      .locator('img')
      .first()
      .getAttribute('src')
      .catch(() => null)) ?? '',
  )?.[1];
  if (await sceneFromDetailView(ctx, tile)) return waitForScene(ctx, clip.projectId, timeoutMs);
  await newSceneFromToolbar(ctx);
  const sceneId = await waitForScene(ctx, clip.projectId, timeoutMs);
  if (token === undefined)
    throw new ReferenceNotFoundError(
      `The grid tile of ${clip.mediaId} shows no /asb/ thumbnail to find it by in the scene's clip picker.`,
    );
  await addClipToScene(ctx, token, timeoutMs);
  return sceneId;
}

/** Opens the tile's detail view; clicks its scene button when it has one (true), else closes the view (false). */
async function sceneFromDetailView(ctx: OpContext, tile: Locator): Promise<boolean> {
  const { page } = ctx;
  await safeClick(ctx, tile, "opening the clip's detail view");
  const outsideGrid = page.locator('button:not(flow-video-tile button):not(flow-image-tile button)');
  const download = withIcon(page, outsideGrid, 'download').filter({ visible: true }).first();
  const opened = await untilDom(
    page,
    async () => ((await download.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 5_000,
      signal: ctx.signal,
    },
  );
  if (opened !== true) throw await driftError(page, "The clip's detail view did not open", 'button:has(mat-icon)');
  const toScene = withIcon(page, outsideGrid, SCENE.sceneIcon).filter({ visible: true }).first();
  if ((await toScene.count()) === 0) {
    await page.keyboard.press('Escape');
    return false;
  }
  await safeClick(ctx, toScene, 'opening a scene with the clip');
  return true;
}

async function newSceneFromToolbar(ctx: OpContext): Promise<void> {
  const { page } = ctx;
  await untilDom(page, async () => ((await page.locator(SCENE.menu).count()) === 0 ? true : undefined), {
    timeoutMs: 2_000,
    signal: ctx.signal,
  });
  await safeClick(ctx, page.locator(A.plusButton).filter({ visible: true }).first(), "opening the toolbar's + menu");
  const entry = withIcon(page, page.locator(`${SCENE.menu} ${A.menuItem}`), SCENE.sceneIcon).first();
  const shown = await untilDom(page, async () => ((await entry.isVisible().catch(() => false)) ? true : undefined), {
    timeoutMs: 3_000,
    signal: ctx.signal,
  });
  if (shown !== true) {
    await page.keyboard.press('Escape');
    throw new ExtendUnavailableError(
      "Flow's clip detail view offers no scene button and its toolbar + menu no New scene entry: gflow cannot open the scene editor. Nothing was submitted.",
    );
  }
  await safeClick(ctx, entry, 'making a new scene');
}

/** The timeline's + → "Add clip" → the clip whose thumbnail carries `token`; waits for it on the timeline. */
async function addClipToScene(ctx: OpContext, token: string, timeoutMs: number): Promise<void> {
  const { page } = ctx;
  const onTimeline = page.locator(`img[src*="/asb/${token}"]:not(.cdk-overlay-container img)`);
  await openPlusMenu(ctx);
  const addClip = withIcon(page, page.locator(`${SCENE.menu} ${A.menuItem}`), SCENE.addClipIcon).first();
  if ((await addClip.count()) === 0) {
    await page.keyboard.press('Escape');
    throw new ExtendUnavailableError(
      "Flow's scene editor offers no way gflow knows to put the clip on the scene (no scene button on the clip, no Add clip entry). Nothing was submitted.",
    );
  }
  await safeClick(ctx, addClip, 'choosing Add clip');
  const option = page
    .locator(SCENE.option)
    .filter({ has: page.locator(`img[src*="/asb/${token}"]`) })
    .first();
  const listed = await untilDom(page, async () => ((await option.isVisible().catch(() => false)) ? true : undefined), {
    timeoutMs: 5_000,
    signal: ctx.signal,
  });
  if (listed !== true) {
    await page.keyboard.press('Escape');
    throw new ReferenceNotFoundError("The scene editor's clip picker does not list the source clip.");
  }
  await safeClick(ctx, option, 'putting the clip on the scene');
  const placed = await untilDom(page, async () => ((await onTimeline.count()) > 0 ? true : undefined), {
    timeoutMs,
    signal: ctx.signal,
  });
  if (placed !== true)
    throw await driftError(page, 'The clip never showed on the scene timeline', `img[src*="/asb/${token}"]`);
}

/** Clicks the timeline's + and waits for its menu; returns the menu's entries. */
async function openPlusMenu(ctx: OpContext): Promise<Locator> {
  const menu = ctx.page.locator(SCENE.menu).filter({ visible: true }).first();
  await safeClick(ctx, plusButton(ctx), "opening the timeline's + menu");
  const opened = await untilDom(
    ctx.page,
    async () => ((await menu.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 4_000,
      signal: ctx.signal,
    },
  );
  if (opened !== true) throw await driftError(ctx.page, "The timeline's + menu did not open", SCENE.menu);
  return menu.locator(A.menuItem);
}

/**
 * The timeline's + → the extend entry naming the model (by its product name: flow-captures.md §10
 * measured "Extend (Veo 3.1 - Lite)"; the words around it are [U] and translated) → the text field
 * it opens. No entry for the model is ExtendUnavailableError (35), naming what the menu offers.
 */
export async function openExtendComposer(ctx: OpContext, model: VideoModel): Promise<Locator> {
  const items = await openPlusMenu(ctx);
  const texts = await textsWithoutIcons(items);
  const pick = pickMenuCandidate(texts, model.menu);
  if (pick.kind !== 'one') {
    await ctx.page.keyboard.press('Escape');
    if (pick.kind === 'many')
      throw new VideoModelSelectionError(
        `"${pick.candidate.label}" matches ${pick.indexes.length} entries of the scene's + menu (${pick.indexes.map((i) => texts[i]).join(', ')}); refusing to guess. Nothing was submitted.`,
      );
    throw new ExtendUnavailableError(
      `Flow's scene editor offers no extend with ${model.label}; its + menu offers: ${texts.join(', ') || 'nothing'}. Nothing was submitted.`,
      { extensions: { offered: texts } },
    );
  }
  await safeClick(ctx, items.nth(pick.index), 'choosing the extend entry');
  const field = ctx.page.locator(SCENE.field).filter({ visible: true }).last();
  const shown = await untilDom(
    ctx.page,
    async () => ((await field.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 4_000,
      signal: ctx.signal,
    },
  );
  if (shown !== true) throw await driftError(ctx.page, 'The extend entry opened no prompt field', SCENE.field);
  return field;
}
