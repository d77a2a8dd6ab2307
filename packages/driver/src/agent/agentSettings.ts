import type { Locator } from 'playwright-core';
import { ConfigurationError, VideoModelSelectionError } from '@gflow/errors';
import { type MenuEntry, candidateShown, pickMenuCandidate } from '@gflow/flow-facts';
import { A, textWithoutIcons, textsWithoutIcons, withIcon } from '../composer/anchors.js';
import { driftError } from '../composer/drift.js';
import { safeClick } from '../composer/safeClick.js';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';

/**
 * The agent-only composer (flow-wire §4 "Agent-only composer (#799)"): component tags and
 * classes, Material ligatures and the order of controls — never translated labels.
 */
export const AG = {
  box: A.agentBox,
  generate: 'flow-generate-icon-button button',
  stop: 'flow-stop-icon-button button, button.stop-button',
  settingsView: 'flow-agent-panel flow-settings-view',
  toggleGroup: 'mat-button-toggle-group',
  toggle: 'mat-button-toggle',
  imageModel: 'button.image-model-picker-button',
  videoModel: 'button.video-model-picker-button',
  save: 'button.settings-save-button',
  radio: 'mat-radio-button',
  permission: 'flow-permission-message',
  optionRow: 'div[role="radio"].option-row',
  pendingTile: 'flow-pending-tile',
  imageTile: 'flow-image-tile',
  videoTile: 'flow-video-tile',
  videoOption: 'flow-a2ui-video-option',
} as const;

/** What the agent's settings view shows; null where a control is missing or shows no choice. */
export interface AgentSettingsShown {
  readonly imageAspect: string | null;
  readonly imageCount: number | null;
  readonly videoAspect: string | null;
  readonly videoCount: number | null;
  readonly imageModel: string | null;
  readonly videoModel: string | null;
  /** "Confirm before generating": the first radio is Always, the second Never (flow-wire §4). */
  readonly confirm: 'always' | 'never' | null;
}

/** What a run wants set; an absent field is left as it is. */
export interface AgentSettingsWanted {
  readonly imageAspect?: string;
  readonly imageCount?: number;
  readonly videoAspect?: string;
  readonly videoCount?: number;
  readonly imageModel?: readonly [MenuEntry, ...MenuEntry[]];
  readonly videoModel?: readonly [MenuEntry, ...MenuEntry[]];
  readonly confirm?: 'always' | 'never';
}

/** The toggle groups in their order (flow-wire §4). */
const GROUPS = ['imageAspect', 'imageCount', 'videoAspect', 'videoCount'] as const;
type GroupName = (typeof GROUPS)[number];

const countOf = (text: string): number | null => {
  const m = /^\s*[x×]?\s*(\d+)\s*[x×]?\s*$/i.exec(text);
  return m?.[1] === undefined ? null : Number(m[1]);
};
const ratioOf = (text: string): string | null => /(\d+)\s*:\s*(\d+)/.exec(text)?.slice(1, 3).join(':') ?? null;

function view(ctx: OpContext): Locator {
  return ctx.page.locator(AG.settingsView).filter({ visible: true }).first();
}

/** Opens the settings view (`tune` in the agent prompt box) and returns it. */
export async function openAgentSettings(ctx: OpContext): Promise<Locator> {
  const { page } = ctx;
  const settings = view(ctx);
  if (await settings.isVisible().catch(() => false)) return settings;
  const tune = withIcon(page, page.locator(`${AG.box} button`), 'tune').first();
  if ((await tune.count()) === 0)
    throw await driftError(page, 'The agent prompt box has no settings (tune) button', `${AG.box} button`);
  try {
    await safeClick(ctx, tune, 'opening the agent settings');
  } catch (error) {
    const mapped = ctx.mapError(error, 'opening the agent settings');
    if (mapped !== error) throw mapped;
    throw await driftError(page, 'Could not open the agent settings', `${AG.box} button`, { cause: error });
  }
  const opened = await untilDom(
    ctx.page,
    async () => ((await settings.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 5_000,
      signal: ctx.signal,
    },
  );
  if (opened !== true) throw await driftError(page, 'The agent settings view did not open', AG.settingsView);
  return settings;
}

/** Reads the open settings view in one snapshot. */
export async function readAgentSettings(ctx: OpContext, settings: Locator): Promise<AgentSettingsShown> {
  const groups = await settings.locator(AG.toggleGroup).evaluateAll((els) =>
    els.map((group) => {
      const picked = Array.from(group.querySelectorAll('mat-button-toggle')).find(
        (t) =>
          t.classList.contains('mat-button-toggle-checked') ||
          t.querySelector('button[aria-pressed="true"], button[aria-checked="true"]') !== null,
      );
      return picked === undefined ? null : (picked.textContent ?? '').replace(/\s+/g, ' ').trim();
    }),
  );
  const radios = await settings
    .locator(AG.radio)
    .evaluateAll((els) =>
      els.map(
        (r) =>
          r.classList.contains('mat-mdc-radio-checked') ||
          r.classList.contains('mat-radio-checked') ||
          (r.querySelector('input[type="radio"]') as HTMLInputElement | null)?.checked === true,
      ),
    );
  const label = async (selector: string): Promise<string | null> => {
    const button = settings.locator(selector).first();
    return (await button.count()) === 0 ? null : await textWithoutIcons(button);
  };
  const text = (i: number): string | null => groups[i] ?? null;
  return {
    imageAspect: ratioOf(text(0) ?? ''),
    imageCount: countOf(text(1) ?? ''),
    videoAspect: ratioOf(text(2) ?? ''),
    videoCount: countOf(text(3) ?? ''),
    imageModel: await label(AG.imageModel),
    videoModel: await label(AG.videoModel),
    confirm: radios.length !== 2 ? null : radios[0] === true ? 'always' : radios[1] === true ? 'never' : null,
  };
}

async function pickToggle(ctx: OpContext, settings: Locator, group: GroupName, wanted: string | number): Promise<void> {
  const index = GROUPS.indexOf(group);
  const toggles = settings.locator(AG.toggleGroup).nth(index).locator(AG.toggle);
  const texts = await textsWithoutIcons(toggles);
  const hit = texts.findIndex((t) => (typeof wanted === 'number' ? countOf(t) === wanted : ratioOf(t) === wanted));
  if (hit < 0) {
    throw new ConfigurationError(
      `The agent's settings offer no ${String(wanted)} for ${group} (they offer: ${texts.join(', ') || 'nothing'}). Nothing was submitted.`,
    );
  }
  await safeClick(ctx, toggles.nth(hit).locator('button').first(), `setting the agent's ${group}`);
}

/**
 * Picks a model in a picker's menu: the first candidate the menu offers (product names), or an
 * exact label when restoring what was there before.
 */
async function pickAgentModel(
  ctx: OpContext,
  settings: Locator,
  picker: { selector: string; kind: 'image' | 'video' },
  wanted: readonly [MenuEntry, ...MenuEntry[]] | string,
): Promise<void> {
  const { page } = ctx;
  const button = settings.locator(picker.selector).first();
  if ((await button.count()) === 0)
    throw await driftError(page, `The agent settings have no ${picker.kind} model picker`, picker.selector);
  const shown = await textWithoutIcons(button);
  if (typeof wanted === 'string' ? shown === wanted : candidateShown(shown, wanted) !== undefined) return;
  await safeClick(ctx, button, `opening the agent's ${picker.kind} model menu`);
  const menu = page.locator(`${A.overlayPane} ${A.menu}`).filter({ visible: true }).last();
  const opened = await untilDom(
    ctx.page,
    async () => ((await menu.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 4_000,
      signal: ctx.signal,
    },
  );
  if (opened !== true) throw await driftError(page, `The agent's ${picker.kind} model menu did not open`, A.menu);
  const items = menu.locator(A.menuItem);
  const texts = await textsWithoutIcons(items);
  let index: number;
  if (typeof wanted === 'string') index = texts.indexOf(wanted);
  else {
    const pick = pickMenuCandidate(texts, wanted);
    index = pick.kind === 'one' ? pick.index : -1;
  }
  if (index < 0) {
    await page.keyboard.press('Escape');
    const Err = picker.kind === 'video' ? VideoModelSelectionError : ConfigurationError;
    const asked = typeof wanted === 'string' ? `"${wanted}"` : wanted.map((c) => `"${c.label}"`).join(' or ');
    throw new Err(
      `The agent's ${picker.kind} model menu offers no single ${asked}; it offers: ${texts.join(', ')}. Nothing was submitted.`,
    );
  }
  await safeClick(ctx, items.nth(index), `picking the agent's ${picker.kind} model`);
}

async function pickConfirm(ctx: OpContext, settings: Locator, confirm: 'always' | 'never'): Promise<void> {
  const radios = settings.locator(AG.radio);
  if ((await radios.count()) !== 2)
    throw await driftError(
      ctx.page,
      'The agent settings do not show the two "Confirm before generating" radios',
      AG.radio,
    );
  const radio = radios.nth(confirm === 'always' ? 0 : 1);
  const input = radio.locator('input[type="radio"]').first();
  await safeClick(ctx, (await input.count()) > 0 ? input : radio, 'setting "Confirm before generating"');
}

function differs(shown: AgentSettingsShown, wanted: AgentSettingsWanted): boolean {
  return (
    (wanted.imageAspect !== undefined && shown.imageAspect !== wanted.imageAspect) ||
    (wanted.imageCount !== undefined && shown.imageCount !== wanted.imageCount) ||
    (wanted.videoAspect !== undefined && shown.videoAspect !== wanted.videoAspect) ||
    (wanted.videoCount !== undefined && shown.videoCount !== wanted.videoCount) ||
    (wanted.imageModel !== undefined && candidateShown(shown.imageModel ?? '', wanted.imageModel) === undefined) ||
    (wanted.videoModel !== undefined && candidateShown(shown.videoModel ?? '', wanted.videoModel) === undefined) ||
    (wanted.confirm !== undefined && shown.confirm !== wanted.confirm)
  );
}

/** Sets what differs, saves, reopens the view and reads it back; a value that did not stick is drift. */
async function writeSettings(
  ctx: OpContext,
  apply: (settings: Locator) => Promise<void>,
  check: (shown: AgentSettingsShown) => boolean,
): Promise<AgentSettingsShown> {
  const settings = await openAgentSettings(ctx);
  await apply(settings);
  await safeClick(ctx, settings.locator(AG.save).first(), 'saving the agent settings');
  const closed = await untilDom(
    ctx.page,
    async () => ((await settings.isVisible().catch(() => true)) ? undefined : true),
    {
      timeoutMs: 10_000,
      signal: ctx.signal,
    },
  );
  if (closed !== true) throw await driftError(ctx.page, 'The agent settings did not close after Save', AG.save);
  const again = await openAgentSettings(ctx);
  const shown = await readAgentSettings(ctx, again);
  await closeAgentSettings(ctx, again);
  if (!check(shown)) {
    throw await driftError(
      ctx.page,
      'The agent settings did not keep what was saved (read back after Save)',
      AG.settingsView,
    );
  }
  return shown;
}

/** Leaves the settings view without saving (`arrow_back`). */
export async function closeAgentSettings(ctx: OpContext, settings: Locator): Promise<void> {
  const back = withIcon(ctx.page, settings.locator('button'), 'arrow_back').first();
  if ((await back.count()) > 0) await safeClick(ctx, back, 'leaving the agent settings');
  else await ctx.page.keyboard.press('Escape');
  await untilDom(ctx.page, async () => ((await settings.isVisible().catch(() => false)) ? undefined : true), {
    timeoutMs: 5_000,
    signal: ctx.signal,
  });
}

/**
 * Sets the run's aspect, count, model and "Confirm before generating" in the agent's settings
 * and returns what was there before (for {@link restoreAgentSettings}). Nothing is saved when
 * everything already matches.
 */
export async function applyAgentSettings(ctx: OpContext, wanted: AgentSettingsWanted): Promise<AgentSettingsShown> {
  const settings = await openAgentSettings(ctx);
  const before = await readAgentSettings(ctx, settings);
  if (!differs(before, wanted)) {
    await closeAgentSettings(ctx, settings);
    return before;
  }
  await closeAgentSettings(ctx, settings);
  await writeSettings(
    ctx,
    async (open) => {
      for (const group of GROUPS) {
        const value = wanted[group];
        if (value !== undefined && before[group] !== value) await pickToggle(ctx, open, group, value);
      }
      if (wanted.imageModel !== undefined)
        await pickAgentModel(ctx, open, { selector: AG.imageModel, kind: 'image' }, wanted.imageModel);
      if (wanted.videoModel !== undefined)
        await pickAgentModel(ctx, open, { selector: AG.videoModel, kind: 'video' }, wanted.videoModel);
      if (wanted.confirm !== undefined && before.confirm !== wanted.confirm)
        await pickConfirm(ctx, open, wanted.confirm);
    },
    (shown) => !differs(shown, wanted),
  );
  return before;
}

/** Puts back what {@link applyAgentSettings} found (only the fields that were readable and changed). */
export async function restoreAgentSettings(ctx: OpContext, before: AgentSettingsShown): Promise<void> {
  const settings = await openAgentSettings(ctx);
  const now = await readAgentSettings(ctx, settings);
  await closeAgentSettings(ctx, settings);
  const same = (k: keyof AgentSettingsShown): boolean => before[k] === null || before[k] === now[k];
  if ((Object.keys(before) as (keyof AgentSettingsShown)[]).every(same)) return;
  await writeSettings(
    ctx,
    async (open) => {
      for (const group of GROUPS) {
        const value = before[group];
        if (value !== null && now[group] !== value) await pickToggle(ctx, open, group, value);
      }
      if (before.imageModel !== null && now.imageModel !== before.imageModel)
        await pickAgentModel(ctx, open, { selector: AG.imageModel, kind: 'image' }, before.imageModel);
      if (before.videoModel !== null && now.videoModel !== before.videoModel)
        await pickAgentModel(ctx, open, { selector: AG.videoModel, kind: 'video' }, before.videoModel);
      if (before.confirm !== null && now.confirm !== before.confirm) await pickConfirm(ctx, open, before.confirm);
    },
    (shown) =>
      (Object.keys(before) as (keyof AgentSettingsShown)[]).every((k) => before[k] === null || before[k] === shown[k]),
  );
}
