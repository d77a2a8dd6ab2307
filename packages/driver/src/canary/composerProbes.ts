import { hasErrorCode } from '@gflow/errors';
import { parseCreditsText } from '../account/creditsText.js';
import { creditsControl } from '../account/readCredits.js';
import { AG, closeAgentSettings, openAgentSettings, readAgentSettings } from '../agent/agentSettings.js';
import { A, textWithoutIcons } from '../composer/anchors.js';
import { postMortem } from '../composer/drift.js';
import { dismissOverlays } from '../composer/overlays.js';
import { clearPrompt, editor, typePrompt } from '../composer/promptText.js';
import { safeClick } from '../composer/safeClick.js';
import { closeSettings } from '../composer/settingsPane.js';
import { submitButton, waitForSubmitReady } from '../composer/submitButton.js';
import { leaveAgentMode, settleArm } from '../composer/uiArm.js';
import { uploadMenuItem } from '../composer/uploads.js';
import { searchAnswered } from '../composer/searchReply.js';
import { untilTrue } from '../util/domWait.js';
import {
  type CapabilityProbe,
  PROBE_CLICK_MS,
  type ProbeFinding,
  type ProbeScope,
  drifted,
  notOffered,
  ok,
} from './capability.js';
import { inFramesMode } from './settingsProbes.js';

/** What the canary types to see the submit enable: never submitted (the submit guard holds every submit). */
const PROBE_TEXT = 'gflow canary check';

/** Lets a picker show what the page's own search found (its UpteDb answered, the list drawn), so the capture holds an option. */
async function listed(scope: ProbeScope, since: number, options: string): Promise<void> {
  const { ctx } = scope;
  await searchAnswered(ctx, since, '', 2_500);
  await untilTrue(ctx.page, () => visible(scope, options), { timeoutMs: 1_000, signal: ctx.signal });
}

const visible = (scope: ProbeScope, selector: string): Promise<boolean> =>
  scope.ctx.page
    .locator(selector)
    .filter({ visible: true })
    .count()
    .then((n) => n > 0)
    .catch(() => false);

async function shownWithin(scope: ProbeScope, selector: string, timeoutMs: number): Promise<boolean> {
  const { ctx } = scope;
  return untilTrue(ctx.page, () => visible(scope, selector), { timeoutMs, signal: ctx.signal });
}

/**
 * The composer in front (flow-wire §4 "UI arm detection"), settled as a run settles it: agent mode
 * is switched off as a run does; a chip that is not pressed beside no settings trigger is drift.
 * Decides the arm the other probes run on.
 */
export const COMPOSER_PROBE: CapabilityProbe = {
  id: 'composer',
  title: 'Composer',
  expected: `the classic composer (\`${A.trigger}\` visible), agent mode (a pressed \`${A.agentChip}\`) or the agent-only composer (\`${A.agentBox}\`)`,
  arms: ['classic', 'agent-only'],
  async run(scope) {
    const { ctx } = scope;
    await dismissOverlays(ctx);
    const arm = await settleArm(ctx);
    await scope.record(A.promptBox, ctx.page.locator(`${A.promptBox}, ${A.agentBox}`));
    if (arm === 'classic') {
      scope.arm = 'classic';
      return ok('the classic composer');
    }
    if (arm === 'agent-only') {
      scope.arm = (await ctx.page.locator(AG.box).count()) > 0 ? 'agent-only' : 'none';
      return scope.arm === 'agent-only'
        ? ok('the agent-only composer')
        : drifted('no settings trigger, no agent-mode chip and no agent prompt box gflow knows');
    }
    scope.arm = 'classic';
    if ((await ctx.page.locator(`${A.agentChip}[aria-pressed="true"]`).count()) > 0) {
      await leaveAgentMode(ctx);
      return ok('agent mode was on; switched off, as a run does');
    }
    return drifted(
      `an agent-mode chip that is not pressed, and no visible settings trigger (\`${A.trigger}\`: ${await postMortem(ctx.page, A.trigger)})`,
    );
  },
};

const promptEditor: CapabilityProbe = {
  id: 'prompt.editor',
  title: 'Prompt editor',
  expected: `a \`${A.editor}\` editor inside \`${A.promptBox}\``,
  arms: ['classic'],
  async run(scope) {
    const shown = await editor(scope.ctx)
      .isVisible()
      .catch(() => false);
    return shown
      ? ok('an editable prompt')
      : drifted(`no visible editor: ${await postMortem(scope.ctx.page, A.editor)}`);
  },
};

const framesPicker: CapabilityProbe = {
  id: 'frames.picker',
  title: 'Frames picker',
  expected: `in video mode with Frames, empty chips \`${A.emptyChip}\` (Start, End); one opens \`${A.picker}\` with a search box`,
  arms: ['classic'],
  requires: 'settings.pane',
  async run(scope) {
    const { ctx } = scope;
    await inFramesMode(scope);
    await closeSettings(ctx);
    const chips = ctx.page.locator(A.emptyChip);
    if (!(await shownWithin(scope, A.emptyChip, 3_000)))
      return drifted(`no empty Frames chip (\`${A.emptyChip}\`): ${await postMortem(ctx.page, A.emptyChip)}`);
    const count = await chips.count();
    await scope.record(A.emptyChip, chips);
    const since = ctx.tap.seq;
    await safeClick(ctx, chips.first(), 'opening the frame picker', PROBE_CLICK_MS);
    if (!(await shownWithin(scope, A.picker, 5_000))) return drifted(`the Start chip opened no \`${A.picker}\``);
    await listed(scope, since, `${A.picker} ${A.assetOption}`);
    const picker = ctx.page.locator(A.picker).filter({ visible: true }).first();
    await scope.record(A.picker, picker);
    const search = await picker.locator('input[type="text"]').count();
    await ctx.page.keyboard.press('Escape');
    if (search === 0) return drifted('the library picker opened without its search box (`input[type="text"]`)');
    return count >= 2
      ? ok(`${count} empty chips; the library picker opens with its search box`)
      : drifted(`${count} empty chip (Start and End expected)`);
  },
};

const mentionPicker: CapabilityProbe = {
  id: 'mention.picker',
  title: '@ picker',
  expected: `typing \`@\` in the editor opens an overlay pane with tabs (\`${A.mentionTab}\`)`,
  arms: ['classic'],
  async run(scope) {
    const { ctx } = scope;
    await clearPrompt(ctx);
    const since = ctx.tap.seq;
    await ctx.page.keyboard.type('@');
    const overlay = `${A.overlayPane}:has(${A.mentionTab})`;
    const opened = await shownWithin(scope, overlay, 4_000);
    if (opened) {
      await listed(scope, since, `${overlay} ${A.assetOption}`);
      await scope.record(overlay, ctx.page.locator(overlay).filter({ visible: true }).first());
    }
    const tabs = await ctx.page.locator(`${overlay} ${A.mentionTab}`).count();
    await ctx.page.keyboard.press('Escape');
    await clearPrompt(ctx);
    return opened ? ok(`the @ overlay opens with ${tabs} tabs`) : drifted('typing @ opened no overlay with tabs');
  },
};

const uploadEntry: CapabilityProbe = {
  id: 'upload.entry',
  title: 'Upload entry',
  expected:
    'the toolbar `+` (an `add` icon button outside the prompt box) opens a menu whose `upload` item opens a file chooser',
  arms: ['classic'],
  async run(scope) {
    const { ctx } = scope;
    const plus = ctx.page.locator(A.plusButton).first();
    if ((await plus.count()) === 0) return drifted(`no toolbar + button: ${await postMortem(ctx.page, A.plusButton)}`);
    await safeClick(ctx, plus, 'opening the + menu', PROBE_CLICK_MS);
    const item = uploadMenuItem(ctx.page);
    if (!(await untilTrue(ctx.page, () => item.isVisible(), { timeoutMs: 5_000, signal: ctx.signal }))) {
      await ctx.page.keyboard.press('Escape');
      return drifted('the + menu shows no menu item with the `upload` ligature');
    }
    await scope.record(`${A.overlayPane} ${A.menu}`, ctx.page.locator(`${A.overlayPane} ${A.menu}`).first());
    // The chooser is dismissed unanswered: no file is chosen, nothing is uploaded.
    const chooser = await Promise.all([
      ctx.page.waitForEvent('filechooser', { timeout: 5_000 }),
      item.click({ timeout: 5_000 }),
    ]).then(
      () => true,
      () => false,
    );
    await ctx.page.keyboard.press('Escape');
    return chooser ? ok('the Upload entry opens a file chooser') : drifted('the Upload entry opened no file chooser');
  },
};

const creditsBalance: CapabilityProbe = {
  id: 'credits.balance',
  title: 'Credit balance',
  expected: 'a `flow-app-header` button holding the `toll` ligature, whose text is a whole number of credits',
  arms: ['classic', 'agent-only'],
  async run(scope) {
    const control = creditsControl(scope.ctx.page).first();
    if ((await control.count()) === 0) return drifted('no header button with the `toll` ligature');
    await scope.record('flow-app-header button:has(mat-icon:text("toll"))', control);
    const reading = parseCreditsText(await textWithoutIcons(control));
    return 'credits' in reading ? ok('a balance gflow can read') : drifted(reading.error.replace(/\(.*\)/, '(…)'));
  },
};

async function submitFinding(scope: ProbeScope): Promise<ProbeFinding> {
  try {
    const button = await waitForSubmitReady(scope.ctx);
    await scope.record('button:has(mat-icon:text("arrow_forward"))', button);
    return ok('enabled once a prompt is typed');
  } catch (error) {
    if (!hasErrorCode(error, 'insufficient-credits')) throw error;
    await scope.record(A.creditsWarning, scope.ctx.page.locator(A.creditsWarning).first());
    return ok('the insufficient-credits warning stands in its place (gflow reads it and stops before spending)');
  }
}

const submit: CapabilityProbe = {
  id: 'submit.button',
  title: 'Submit button',
  expected: `a visible button holding \`arrow_forward\` that enables once a prompt is typed (or \`${A.creditsWarning}\` in its place); never clicked`,
  arms: ['classic'],
  async run(scope) {
    await typePrompt(scope.ctx, PROBE_TEXT);
    try {
      if ((await submitButton(scope.ctx).count()) === 0 && !(await visible(scope, A.creditsWarning)))
        return drifted(
          `no visible button with the \`arrow_forward\` ligature: ${await postMortem(scope.ctx.page, A.promptBox)}`,
        );
      return await submitFinding(scope);
    } finally {
      await clearPrompt(scope.ctx);
    }
  },
};

const agentChip: CapabilityProbe = {
  id: 'agent.chip',
  title: 'Agent-mode chip',
  expected: `\`${A.agentChip}\` with \`aria-pressed\` in the prompt box (only on accounts with agent mode)`,
  arms: ['classic'],
  async run(scope) {
    const { page } = scope.ctx;
    const chip = page.locator(A.agentChip);
    if ((await chip.count()) > 0) {
      await scope.record(A.agentChip, chip);
      return ok(`present, aria-pressed=${(await chip.first().getAttribute('aria-pressed')) ?? 'absent'}`);
    }
    // A pressable toggle in the prompt box that is not the chip gflow knows: the chip under another name.
    const toggles = await page.locator(`${A.promptBox} button[aria-pressed]`).count();
    return toggles > 0
      ? drifted(`no \`${A.agentChip}\`, but ${toggles} other pressable button(s) in the prompt box`)
      : notOffered('this account shows no agent-mode chip');
  },
};

const agentComposer: CapabilityProbe = {
  id: 'agent.composer',
  title: 'Agent-only composer',
  expected: `\`${AG.box}\` with its submit (\`${AG.generate}\`) and a \`tune\` settings view showing the toggle groups, model pickers and confirm radios`,
  arms: ['agent-only'],
  async run(scope) {
    const { ctx } = scope;
    if ((await ctx.page.locator(AG.generate).count()) === 0)
      return drifted(`no \`${AG.generate}\` in the agent composer`);
    const settings = await openAgentSettings(ctx);
    await scope.record(AG.settingsView, settings);
    const shown = await readAgentSettings(ctx, settings);
    await closeAgentSettings(ctx, settings);
    const unread = Object.entries(shown)
      .filter(([, value]) => value === null)
      .map(([key]) => key);
    return unread.length === 0
      ? ok('its settings view reads aspect, count, models and confirmation')
      : drifted(`its settings view does not show: ${unread.join(', ')}`);
  },
};

/**
 * The scene editor's extend entry (flow-captures §10: "Extend (Veo 3.1 - Lite)" under the timeline's
 * `+`). gflow has no anchor for it yet: the scene editor's DOM was never captured. When the driver
 * learns to extend, this probe opens the scene editor with the driver's own anchors (as the other
 * probes do) and stops at the menu entry, never clicking it.
 */
const sceneExtend: CapabilityProbe = {
  id: 'scene.extend',
  title: 'Extend (scene editor)',
  expected: "the scene editor timeline's `+` menu offers an Extend entry",
  arms: ['classic'],
  run: async () => notOffered('gflow does not drive the scene editor yet: it has no anchor to check'),
};

/** The composer's probes after the settings pane's, in the order a run meets them. */
export const COMPOSER_PROBES: readonly CapabilityProbe[] = [
  framesPicker,
  mentionPicker,
  uploadEntry,
  creditsBalance,
  submit,
  agentChip,
  agentComposer,
  sceneExtend,
];

/** Before the settings pane: the prompt editor. */
export const EDITOR_PROBES: readonly CapabilityProbe[] = [promptEditor];
