import { ConfigurationError, VideoModelSelectionError } from '@gflow/errors';
import { type MenuEntry, candidateShown, labelMatches, pickMenuCandidate } from '@gflow/flow-facts';
import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { untilDom, untilTrue } from '../util/domWait.js';
import { A, textWithoutIcons, textsWithoutIcons, withIcon } from './anchors.js';
import { driftError } from './drift.js';
import { openSettings, settingsPane } from './settingsPane.js';
import { safeClick } from './safeClick.js';

export interface ModelWanted<T extends MenuEntry> {
  /** The model's menu entries in order of preference (the table's `menu`); the first one offered wins. */
  readonly candidates: readonly [T, ...T[]];
  readonly kind: 'image' | 'video';
}

/** The settings pane's model button (the one holding `arrow_drop_down`, flow-wire §4), which shows the model picked. */
export function modelButton(ctx: OpContext, pane: Locator): Locator {
  return withIcon(ctx.page, pane.locator('button'), 'arrow_drop_down').first();
}

/** The open model menu (an overlay pane's `[role=menu]`, visible). */
export function modelMenu(ctx: OpContext): Locator {
  return ctx.page.locator(`.cdk-overlay-pane ${A.menu}`).filter({ visible: true }).first();
}

/** Opens the model menu from the pane's model button. */
async function openModelMenu(ctx: OpContext, button: Locator): Promise<Locator> {
  const { page } = ctx;
  const menu = modelMenu(ctx);
  try {
    await safeClick(ctx, button, 'opening the model menu');
  } catch (error) {
    const mapped = ctx.mapError(error, 'opening the model menu');
    if (mapped !== error) throw mapped;
    throw await driftError(page, 'Could not open the model menu', `${A.settingsPane} button`, { cause: error });
  }
  const opened = await untilDom(page, async () => ((await menu.isVisible().catch(() => false)) ? true : undefined), {
    timeoutMs: 4_000,
    signal: ctx.signal,
  });
  if (opened !== true) throw await driftError(page, 'The model menu did not open', A.menu);
  return menu;
}

/** The model error of the run's kind (a video model has its own code). */
const modelError = (kind: 'image' | 'video', detail: string): Error =>
  kind === 'video' ? new VideoModelSelectionError(detail) : new ConfigurationError(detail);

/** The first candidate the menu offers, clicked; 0 or ≥2 matching entries are refused. */
async function chooseEntry<T extends MenuEntry>(ctx: OpContext, menu: Locator, wanted: ModelWanted<T>): Promise<T> {
  const items = menu.locator(A.menuItem);
  // One snapshot of the entries (one by one, an entry that re-rendered away waits 30 s).
  const texts = await textsWithoutIcons(items);
  const pick = pickMenuCandidate(texts, wanted.candidates);
  if (pick.kind !== 'one') {
    await ctx.page.keyboard.press('Escape');
    throw modelError(
      wanted.kind,
      pick.kind === 'none'
        ? `Flow's model menu offers no ${wanted.candidates.map((c) => `"${c.label}"`).join(' or ')}; it offers: ${texts.join(', ')}. Nothing was submitted.`
        : `"${pick.candidate.label}" matches ${pick.indexes.length} entries of Flow's model menu (${pick.indexes.map((i) => texts[i]).join(', ')}); refusing to guess. Nothing was submitted.`,
    );
  }
  await items.nth(pick.index).click({ timeout: 5_000 });
  return pick.candidate;
}

/** Reads the pane's model button back, then closes the menu only (the pane stays for the other radios). */
async function confirmPicked(ctx: OpContext, menu: Locator, want: MenuEntry, kind: 'image' | 'video'): Promise<void> {
  const { page } = ctx;
  const picked = await untilDom(
    page,
    async () => {
      const text = await textWithoutIcons(modelButton(ctx, settingsPane(ctx))).catch(() => '');
      return labelMatches(text, want.label, want.exclude) ? true : undefined;
    },
    { timeoutMs: 3_000, signal: ctx.signal },
  );
  // The menu can stay open after a switch.
  if (await menu.isVisible().catch(() => false)) {
    await page.keyboard.press('Escape');
    await untilTrue(page, async () => !(await menu.isVisible().catch(() => false)), {
      timeoutMs: 1_000,
      signal: ctx.signal,
    });
  }
  if (picked !== true)
    throw modelError(
      kind,
      `Picked "${want.label}" in Flow's model menu but the settings pane did not show it afterwards. Nothing was submitted.`,
    );
}

/**
 * Picks the model in the pane's [role=menu] by product-name substring (flow-wire §4): the first
 * candidate the menu offers, refusing 0 or ≥2 matches, then reads the pane's model button back.
 * Returns the candidate picked (its token is what the submit body must carry).
 */
export async function pickModel<T extends MenuEntry>(ctx: OpContext, wanted: ModelWanted<T>): Promise<T> {
  const pane = await openSettings(ctx);
  const button = modelButton(ctx, pane);
  if ((await button.count()) === 0)
    throw await driftError(ctx.page, 'The settings pane has no model picker button', `${A.settingsPane} button`);
  const [first] = wanted.candidates;
  if (candidateShown(await textWithoutIcons(button), [first]) !== undefined) return first;
  const menu = await openModelMenu(ctx, button);
  const want = await chooseEntry(ctx, menu, wanted);
  await confirmPicked(ctx, menu, want, wanted.kind);
  return want;
}
