import type { Locator } from 'playwright-core';
import { ConfigurationError, UiSelectorDriftError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { untilDom, untilTrue } from '../util/domWait.js';
import { A } from './anchors.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';

/** One radio as read from the pane: its ligatures, its text without them, aria-checked. */
export interface RadioView {
  readonly icons: readonly string[];
  readonly text: string;
  readonly checked: boolean;
}

export type GroupKind = 'mode' | 'submode' | 'aspect' | 'resolution' | 'duration' | 'count' | 'unknown';

/** Classifies a radiogroup by its ligatures and number tokens (never by translated labels). */
export function classifyGroup(radios: readonly RadioView[]): GroupKind {
  const icons = radios.flatMap((r) => r.icons);
  if (icons.includes('image') || icons.includes('videocam')) return 'mode';
  if (icons.includes('crop_free') || icons.includes('chrome_extension')) return 'submode';
  if (icons.some((i) => i.startsWith('crop_'))) return 'aspect';
  if (radios.length === 0) return 'unknown';
  if (radios.every((r) => /^x\d+$/i.test(r.text))) return 'count';
  if (radios.every((r) => /^\d+\s*p$/i.test(r.text))) return 'resolution';
  if (radios.every((r) => /^\d+(?:[.,]\d+)?(?!\d)\D*$/.test(r.text))) return 'duration';
  return 'unknown';
}

/** The number token of a radio label ("8s", "8 giây", "x2", "720p"). */
export function numberToken(text: string): number | null {
  const m = /(\d+)/.exec(text);
  return m?.[1] === undefined ? null : Number(m[1]);
}

export function settingsPane(ctx: OpContext): Locator {
  return ctx.page.locator(A.settingsPane).filter({ visible: true }).first();
}

/** Opens the settings pane (the overlay pane that contains a radiogroup, not `.last`). */
export async function openSettings(ctx: OpContext): Promise<Locator> {
  const pane = settingsPane(ctx);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    ctx.check('opening the settings pane');
    if (await pane.isVisible().catch(() => false)) return pane;
    try {
      await safeClick(ctx, ctx.page.locator(A.trigger).first(), 'opening the settings pane');
    } catch (error) {
      const mapped = ctx.mapError(error, 'opening the settings pane');
      if (mapped !== error) throw mapped;
      throw await driftError(ctx.page, 'Could not click the settings trigger', A.trigger, { cause: error });
    }
    const open = await untilDom(
      ctx.page,
      async () => ((await pane.isVisible().catch(() => false)) ? true : undefined),
      {
        timeoutMs: 4_000,
        signal: ctx.signal,
      },
    );
    if (open === true) return pane;
  }
  throw await driftError(ctx.page, 'The settings pane did not open', A.settingsPane);
}

export async function readGroups(pane: Locator): Promise<RadioView[][]> {
  return pane.evaluate(
    (root, sel) => {
      return Array.from(root.querySelectorAll(sel.group)).map((group) =>
        Array.from(group.querySelectorAll(sel.radio)).map((radio) => {
          const clone = radio.cloneNode(true) as Element;
          const icons = Array.from(clone.querySelectorAll('mat-icon')).map((i) => (i.textContent ?? '').trim());
          for (const i of Array.from(clone.querySelectorAll('mat-icon'))) i.remove();
          return {
            icons,
            text: (clone.textContent ?? '').replace(/\s+/g, ' ').trim(),
            checked: radio.getAttribute('aria-checked') === 'true',
          };
        }),
      );
    },
    { group: A.radiogroup, radio: A.radio },
  );
}

export interface Choice {
  readonly kind: GroupKind;
  /** What the caller asked for, for messages ("3:4", "8 s", "x2"). */
  readonly wanted: string;
  readonly match: (radio: RadioView) => boolean;
  /** When the group is absent: 'refuse' (ConfigurationError) or 'skip'. */
  readonly ifAbsent: 'refuse' | 'skip';
}

function findGroup(groups: readonly RadioView[][], kind: GroupKind): number {
  return groups.findIndex((g) => classifyGroup(g) === kind);
}

function offered(group: readonly RadioView[]): string {
  return group.map((r) => r.text || r.icons.join('/')).join(', ');
}

/** Clicks a radio by ligature or number token and reads `aria-checked` back (a tick later). */
export async function setChoice(ctx: OpContext, choice: Choice): Promise<void> {
  const pane = await openSettings(ctx);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    ctx.check('configuring the settings pane');
    const groups = await readGroups(pane);
    const g = findGroup(groups, choice.kind);
    if (g < 0) {
      if (choice.ifAbsent === 'skip') return;
      throw new ConfigurationError(
        `Flow's settings pane offers no ${choice.kind} control here, so ${choice.wanted} cannot be set. Nothing was submitted.`,
      );
    }
    const group = groups[g] ?? [];
    const r = group.findIndex(choice.match);
    if (r < 0) {
      throw new ConfigurationError(
        `Flow does not offer ${choice.wanted} for ${choice.kind} here; it offers: ${offered(group)}. Nothing was submitted.`,
      );
    }
    if (group[r]?.checked === true) return;
    const radio = pane.locator(A.radiogroup).nth(g).locator(A.radio).nth(r);
    try {
      await safeClick(ctx, radio, 'configuring the settings pane');
    } catch (error) {
      const mapped = ctx.mapError(error, 'configuring the settings pane');
      if (mapped !== error) throw mapped;
      if (attempt === 2)
        throw await driftError(ctx.page, `Could not click the ${choice.kind} radio ${choice.wanted}`, A.settingsPane, {
          cause: error,
        });
      continue;
    }
    const ok = await untilDom(
      ctx.page,
      async () => {
        const now = await readGroups(pane).catch(() => []);
        const idx = findGroup(now, choice.kind);
        const hit = (now[idx] ?? []).find(choice.match);
        return hit?.checked === true ? true : undefined;
      },
      { timeoutMs: 2_000, signal: ctx.signal },
    );
    if (ok === true) return;
  }
  throw new UiSelectorDriftError(
    `The ${choice.kind} radio ${choice.wanted} never read back aria-checked="true" after three clicks.`,
  );
}

/** The pane's duration slider (Omni 1.2 Flash: seed 000), when the model shows one instead of radios. */
export function durationSlider(pane: Locator): Locator {
  return pane.locator('input[type="range"]').first();
}

/**
 * Sets a duration slider (Omni 1.2 Flash: every integer 3–15 s, seed 000) with the keyboard —
 * focus, then one arrow key per second, reading the value back after each — and verifies the
 * value the slider announces (`aria-valuetext`, a number token like "11s") before anything is
 * submitted. False when the pane has no slider (the caller uses the radios). Out of range is
 * ConfigurationError (11) naming what the slider offers.
 */
export async function setDurationSlider(ctx: OpContext, seconds: number): Promise<boolean> {
  const pane = await openSettings(ctx);
  const slider = durationSlider(pane);
  if ((await slider.count()) === 0) return false;
  const read = (): Promise<{ min: number; max: number; value: number; text: string }> =>
    slider.evaluate((el) => {
      const input = el as HTMLInputElement;
      return {
        min: Number(input.min),
        max: Number(input.max),
        value: Number(input.value),
        text: input.getAttribute('aria-valuetext') ?? input.value,
      };
    });
  let state = await read();
  if (seconds < state.min || seconds > state.max) {
    throw new ConfigurationError(
      `Flow's duration slider offers ${state.min}–${state.max} s here${state.max === 10 ? ' (above 10 s needs a Google AI plan)' : ''}, so ${seconds} s cannot be set. Nothing was submitted.`,
    );
  }
  await slider.focus();
  for (let step = 0; step <= state.max - state.min && state.value !== seconds; step += 1) {
    ctx.check('setting the duration slider');
    await ctx.page.keyboard.press(state.value < seconds ? 'ArrowRight' : 'ArrowLeft');
    state = await read();
  }
  if (state.value !== seconds || numberToken(state.text) !== seconds) {
    throw new UiSelectorDriftError(
      `The duration slider reads ${state.text} after the key presses, not ${seconds} s. Nothing was submitted.`,
    );
  }
  return true;
}

/** Visible overlay panes (settings pane, model menu): what an Escape takes one of. */
async function overlayCount(ctx: OpContext): Promise<number> {
  return ctx.page
    .locator(A.overlayPane)
    .filter({ visible: true })
    .count()
    .catch(() => 0);
}

/** Closes menu and pane with Escapes and verifies no settings pane or menu overlay remains. */
export async function closeSettings(ctx: OpContext): Promise<void> {
  const { page } = ctx;
  const open = async (): Promise<boolean> =>
    (await page
      .locator(A.settingsPane)
      .filter({ visible: true })
      .count()
      .catch(() => 0)) > 0 ||
    (await page
      .locator(`.cdk-overlay-pane ${A.menu}`)
      .filter({ visible: true })
      .count()
      .catch(() => 0)) > 0;
  // One Escape closes the top overlay (the model menu can stay open over the pane: two are needed then).
  for (let i = 0; i < 3 && (await open()); i += 1) {
    const before = await overlayCount(ctx);
    await page.keyboard.press('Escape');
    await untilTrue(page, async () => (await overlayCount(ctx)) < before, { timeoutMs: 1_000, signal: ctx.signal });
  }
  if (await open())
    throw await driftError(page, 'The settings pane or model menu stayed open after three Escapes', A.settingsPane);
}
