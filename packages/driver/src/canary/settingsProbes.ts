import {
  IMAGE_ASPECT_ICONS,
  IMAGE_MODELS,
  type MenuEntry,
  VIDEO_ASPECT_ICONS,
  VIDEO_MODELS,
  pickMenuCandidate,
} from '@gflow/flow-facts';
import type { Locator } from 'playwright-core';
import { A, textsWithoutIcons } from '../composer/anchors.js';
import { readCostLine } from '../composer/costLine.js';
import { modelButton, modelMenu } from '../composer/modelMenu.js';
import { safeClick } from '../composer/safeClick.js';
import {
  type GroupKind,
  type RadioView,
  classifyGroup,
  durationSlider,
  numberToken,
  openSettings,
  readGroups,
  setChoice,
} from '../composer/settingsPane.js';
import { untilTrue } from '../util/domWait.js';
import {
  type CapabilityProbe,
  type CapabilityResult,
  PROBE_CLICK_MS,
  type ProbeFinding,
  type ProbeScope,
  drifted,
  ok,
} from './capability.js';

type Mode = 'videocam' | 'image';
type Submode = 'crop_free' | 'chrome_extension';

const groupOf = (groups: readonly RadioView[][], kind: GroupKind): readonly RadioView[] | undefined =>
  groups.find((g) => classifyGroup(g) === kind);
const iconsOf = (group: readonly RadioView[] | undefined): string[] => (group ?? []).flatMap((r) => r.icons);
const textsOf = (group: readonly RadioView[] | undefined): string[] => (group ?? []).map((r) => r.text);

/** The pane, opened the generation path's way, and its radio groups. */
async function paneGroups(scope: ProbeScope): Promise<{ pane: Locator; groups: RadioView[][] }> {
  const pane = await openSettings(scope.ctx);
  await scope.record(A.settingsPane, pane);
  return { pane, groups: await readGroups(pane) };
}

async function pickMode(scope: ProbeScope, mode: Mode): Promise<void> {
  await setChoice(scope.ctx, {
    kind: 'mode',
    wanted: mode === 'image' ? 'Image' : 'Video',
    match: (r) => r.icons.includes(mode),
    ifAbsent: 'refuse',
  });
}

async function pickSubmode(scope: ProbeScope, submode: Submode): Promise<void> {
  await setChoice(scope.ctx, {
    kind: 'submode',
    wanted: submode === 'crop_free' ? 'Frames' : 'Ingredients',
    match: (r) => r.icons.includes(submode),
    ifAbsent: 'refuse',
  });
}

/** Puts the pane in video (or image) mode as a run does, and reads its groups then. */
export async function inMode(scope: ProbeScope, mode: Mode): Promise<{ pane: Locator; groups: RadioView[][] }> {
  await pickMode(scope, mode);
  return paneGroups(scope);
}

/** Puts the pane in video mode with the Frames submode: what the Frames chips need. */
export async function inFramesMode(scope: ProbeScope): Promise<void> {
  await pickMode(scope, 'videocam');
  await pickSubmode(scope, 'crop_free');
}

/** Remembers the mode and submode the pane shows now, to put them back when the check ends. */
function rememberModes(scope: ProbeScope, groups: readonly RadioView[][]): void {
  const mode = groupOf(groups, 'mode')
    ?.find((r) => r.checked)
    ?.icons.find((i): i is Mode => i === 'videocam' || i === 'image');
  const submode = groupOf(groups, 'submode')
    ?.find((r) => r.checked)
    ?.icons.find((i): i is Submode => i === 'crop_free' || i === 'chrome_extension');
  scope.restore.push(async () => {
    if (mode !== undefined) await pickMode(scope, mode);
    if (mode === 'videocam' && submode !== undefined) await pickSubmode(scope, submode);
  });
}

const settingsPane: CapabilityProbe = {
  id: 'settings.pane',
  title: 'Settings pane',
  expected: `\`${A.trigger}\` opens an overlay pane (\`${A.settingsPane}\`) of radio groups, one of them the mode (\`image\` / \`videocam\` ligatures)`,
  arms: ['classic'],
  async run(scope) {
    const trigger = scope.ctx.page.locator(A.trigger);
    if ((await trigger.count()) === 0) return drifted(`no settings trigger (\`${A.trigger}\`): not rendered`);
    await scope.record(A.trigger, trigger);
    const { groups } = await paneGroups(scope);
    rememberModes(scope, groups);
    const kinds = groups.map(classifyGroup);
    const mode = groupOf(groups, 'mode');
    const both = ['image', 'videocam'].every((i) => iconsOf(mode).includes(i));
    return both
      ? ok(`${groups.length} groups: ${kinds.join(', ')}`)
      : drifted(
          `${groups.length} radio groups (${kinds.join(', ') || 'none'}); no mode group offering image and video`,
        );
  },
};

/** A probe that reads one group of the pane in one mode and checks it with `judge`. */
function groupProbe(
  id: string,
  title: string,
  expected: string,
  mode: Mode,
  judge: (groups: readonly RadioView[][], pane: Locator) => Promise<ProbeFinding>,
): CapabilityProbe {
  return {
    id,
    title,
    expected,
    arms: ['classic'],
    requires: 'settings.pane',
    async run(scope) {
      const { pane, groups } = await inMode(scope, mode);
      return judge(groups, pane);
    },
  };
}

function hasIcons(group: readonly RadioView[] | undefined, wanted: readonly string[], what: string): ProbeFinding {
  if (group === undefined) return drifted(`no ${what} group in the pane`);
  const missing = wanted.filter((icon) => !iconsOf(group).includes(icon));
  return missing.length === 0
    ? ok(`${what}: ${iconsOf(group).join(', ')}`)
    : drifted(
        `the ${what} group lacks ${missing.join(', ')} (it shows ${iconsOf(group).join(', ') || 'no ligatures'})`,
      );
}

function countFinding(group: readonly RadioView[] | undefined): ProbeFinding {
  if (group === undefined) return drifted('no count group (x1…x4): only one result per run could be asked for');
  return textsOf(group).includes('x1') ? ok(textsOf(group).join(', ')) : drifted(`counts ${textsOf(group).join(', ')}`);
}

const KNOWN_DURATIONS = new Set(VIDEO_MODELS.flatMap((m) => m.durations));

const videoProbes: readonly CapabilityProbe[] = [
  groupProbe(
    'settings.video.submode',
    'Frames / Ingredients',
    'in video mode, a submode group with the `crop_free` (Frames) and `chrome_extension` (Ingredients) ligatures',
    'videocam',
    async (groups) => hasIcons(groupOf(groups, 'submode'), ['crop_free', 'chrome_extension'], 'submode'),
  ),
  groupProbe(
    'settings.video.aspect',
    'Video aspect ratios',
    `in video mode, an aspect group with ${Object.values(VIDEO_ASPECT_ICONS).join(', ')}`,
    'videocam',
    async (groups) => hasIcons(groupOf(groups, 'aspect'), Object.values(VIDEO_ASPECT_ICONS), 'aspect'),
  ),
  groupProbe(
    'settings.video.duration',
    'Video durations',
    'in video mode, duration radios whose labels carry the seconds (`4s`, `8 Sek.`), or the duration slider',
    'videocam',
    async (groups, pane) => {
      const group = groupOf(groups, 'duration');
      if (group === undefined)
        return (await durationSlider(pane).count()) > 0
          ? ok('a duration slider')
          : drifted('no duration radios and no duration slider in the pane');
      const seconds = textsOf(group).map(numberToken);
      const odd = seconds.filter((s) => s === null || !KNOWN_DURATIONS.has(s));
      return odd.length === 0
        ? ok(`${seconds.join(', ')} s`)
        : drifted(`durations gflow does not know: ${textsOf(group).join(', ')}`);
    },
  ),
  groupProbe(
    'settings.video.count',
    'Video count',
    'in video mode, a count group `x1`…`x4`',
    'videocam',
    async (groups) => countFinding(groupOf(groups, 'count')),
  ),
];

const imageProbes: readonly CapabilityProbe[] = [
  groupProbe(
    'settings.image.aspect',
    'Image aspect ratios',
    `in image mode, an aspect group with ${Object.values(IMAGE_ASPECT_ICONS).join(', ')}`,
    'image',
    async (groups) => hasIcons(groupOf(groups, 'aspect'), Object.values(IMAGE_ASPECT_ICONS), 'aspect'),
  ),
  groupProbe('settings.image.count', 'Image count', 'in image mode, a count group `x1`…`x4`', 'image', async (groups) =>
    countFinding(groupOf(groups, 'count')),
  ),
];

interface TableModel {
  readonly name: string;
  readonly label: string;
  readonly menu: readonly [MenuEntry, ...MenuEntry[]];
}

/** Opens the model menu the generation path's way, reads its entries, closes it (the pane stays). */
async function menuEntries(scope: ProbeScope, pane: Locator): Promise<string[] | string> {
  const { ctx } = scope;
  const button = modelButton(ctx, pane);
  if ((await button.count()) === 0) return 'no button holding the `arrow_drop_down` ligature in the settings pane';
  await safeClick(ctx, button, 'opening the model menu', PROBE_CLICK_MS);
  const menu = modelMenu(ctx);
  if (!(await untilTrue(ctx.page, () => menu.isVisible().catch(() => false), { timeoutMs: 4_000, signal: ctx.signal })))
    return `the model button opened no \`${A.menu}\` in an overlay pane`;
  await scope.record(`.cdk-overlay-pane ${A.menu}`, menu);
  const texts = await textsWithoutIcons(menu.locator(A.menuItem));
  await ctx.page.keyboard.press('Escape');
  await untilTrue(ctx.page, async () => !(await menu.isVisible().catch(() => false)), {
    timeoutMs: 1_000,
    signal: ctx.signal,
  });
  return texts;
}

/** One result per model of the table: offered (one entry), not offered (none), or drifted (several match). */
function modelResults(kind: string, texts: readonly string[], models: readonly TableModel[]): CapabilityResult[] {
  return models.map((model) => {
    const pick = pickMenuCandidate(texts, model.menu);
    const base = {
      id: `model.${kind}.${model.name}`,
      title: `${model.label} in the ${kind} model menu`,
      expected: `one menu entry containing ${model.menu.map((e) => `"${e.label}"`).join(' or ')}`,
    };
    if (pick.kind === 'one') return { ...base, status: 'ok', found: `"${texts[pick.index] ?? ''}"` };
    if (pick.kind === 'none') return { ...base, status: 'not_offered', found: 'no entry of the menu names it' };
    return { ...base, status: 'drifted', found: `${pick.indexes.length} entries match; gflow refuses to guess` };
  });
}

function modelProbe(kind: 'video' | 'image', mode: Mode, models: readonly TableModel[]): CapabilityProbe {
  return {
    id: `model.${kind}`,
    title: `${kind === 'video' ? 'Video' : 'Image'} model menu`,
    expected: `the pane's \`arrow_drop_down\` button opens a \`${A.menu}\` of \`${A.menuItem}\` entries naming the models of gflow's table`,
    arms: ['classic'],
    requires: 'settings.pane',
    async run(scope) {
      const { pane } = await inMode(scope, mode);
      const texts = await menuEntries(scope, pane);
      if (typeof texts === 'string') return drifted(texts);
      const details = modelResults(kind, texts, models);
      const offered = details.filter((d) => d.status === 'ok').length;
      const found = `${texts.length} entries; ${offered} of the table's ${models.length} models offered`;
      if (details.some((d) => d.status === 'drifted') || offered === 0) return drifted(found, details);
      return ok(found, details);
    },
  };
}

const costLine: CapabilityProbe = {
  id: 'cost.line',
  title: 'Cost line',
  expected:
    'in the settings pane, after the count row, an element holding the credits a run will use (its bold number)',
  arms: ['classic'],
  requires: 'settings.pane',
  async run(scope) {
    await inMode(scope, 'videocam');
    const reading = await readCostLine(scope.ctx);
    if (reading.credits !== null) return ok('a quote gflow can read');
    return reading.text === null
      ? drifted('no element after the count row holds a number: budgets would fail closed, dry runs quote nothing')
      : drifted('a line after the count row, but no whole number gflow can read in it');
  },
};

/** The settings pane's probes, in the order a run meets them. */
export const SETTINGS_PROBES: readonly CapabilityProbe[] = [
  settingsPane,
  ...videoProbes,
  modelProbe('video', 'videocam', VIDEO_MODELS),
  costLine,
  ...imageProbes,
  modelProbe(
    'image',
    'image',
    IMAGE_MODELS.filter((m) => m.onFlowHost),
  ),
];
