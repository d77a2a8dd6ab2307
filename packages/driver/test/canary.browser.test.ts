// The free live canary (canary/checkFlow.ts, issue 44): on the simulator's defaults every capability
// is ok or not offered; on every value of every variant switch too; each drift switch is found
// and named; the capture holds no prompt, cookie, token, email, id or media URL. Nothing is ever
// submitted or charged. One simulator, one browser, one session for the file.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT_NAMES, type DriftName, VARIANT_NAMES, VARIANT_VALUES, type Variants } from '@gflow/flow-sim';
import { makeMedia } from '@gflow/testkit/browser';
import type { FlowCheckReport } from '../src/index.js';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-canary');
const email = 'canary@example.com';
const TITLE = 'gflow canary (scratch)';
let scratch: string;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5_000, uploadTermsAccepted: true, tier: 'pro' });
  await rig.signIn(email);
}, 60_000);

afterEach(() => {
  rig.sim.scenario.setDrift([]);
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.setCohort(email, 'classic');
});

/** One check on the scratch project, with the simulator's log of it: nothing may be submitted or charged. */
async function check(capture = false): Promise<FlowCheckReport> {
  rig.sim.received.clear();
  const report = await rig.session.checkFlow({ projectId: scratch, newProjectTitle: TITLE, capture });
  expect(rig.sim.received.submits().map((c) => c.rpcId)).toEqual([]);
  expect(rig.sim.received.calls().filter((c) => c.rpcId.startsWith('agent.') && c.rpcId !== 'agent.settings')).toEqual(
    [],
  );
  expect(rig.sim.received.charged(email)).toBe(0);
  return report;
}

const statusOf = (report: FlowCheckReport, id: string) => report.capabilities.find((c) => c.id === id)?.status;
const drifts = (report: FlowCheckReport): string[] => [
  ...report.capabilities.filter((c) => c.status === 'drifted').map((c) => `${c.id}: ${c.found}`),
  ...report.replies.filter((r) => r.status === 'drifted').map((r) => `${r.id}: ${r.found}`),
];

const PROMPT = 'zebra lighthouse canary-secret-7319';
/** Secrets on the page the second check reads: the prompt (tile and picker names), the email, the page's token, signed media URLs. */
let pageSecrets: string[] = [];
let captured: FlowCheckReport;

describe('on the captured defaults', () => {
  it('creates the scratch project once, finds every control, and submits nothing', async () => {
    rig.sim.received.clear();
    const first = await rig.session.checkFlow({ newProjectTitle: TITLE, capture: false });
    expect(rig.sim.received.submits()).toEqual([]);
    expect(first.projectCreated).toBe(true);
    expect(first.projectId).toMatch(/^[0-9a-f-]{36}$/);
    scratch = first.projectId ?? '';
    expect(rig.sim.scenario.projectsOf(email).find((p) => p.id === scratch)?.title).toBe(TITLE);
    expect(drifts(first), drifts(first).join('\n')).toEqual([]);
    expect(first.replies.find((r) => r.id === 'reply.create_project')?.status).not.toBe('drifted');
    expect(first.capture).toBeNull();
  });

  it('reuses it, says ok or not offered of every capability, and puts back the mode it changed', async () => {
    await makeMedia(rig.session.context, scratch, 'image', PROMPT);
    const page = await rig.session.context.newPage();
    await page.goto(`https://flow.google.com/project/${scratch}`);
    await page.locator('flow-prompt-box').waitFor();
    const html = await page.content();
    const token = await page.evaluate(
      () => (window as unknown as { WIZ_global_data: { SNlM0e: string } }).WIZ_global_data.SNlM0e,
    );
    await page.close();
    pageSecrets = [PROMPT, email, token];
    for (const secret of [...pageSecrets, 'Signature=']) expect(html).toContain(secret);

    captured = await check(true);
    expect(captured.projectCreated).toBe(false);
    expect(captured.projectId).toBe(scratch);
    expect(captured.arm).toBe('classic');
    expect(drifts(captured), drifts(captured).join('\n')).toEqual([]);
    for (const id of [
      'gallery.new_project',
      'composer',
      'settings.pane',
      'settings.video.aspect',
      'settings.video.duration',
      'model.video',
      'model.video.veo_3_1_lite',
      'model.image.nano2',
      'cost.line',
      'frames.picker',
      'mention.picker',
      'upload.entry',
      'credits.balance',
      'submit.button',
      'agent.chip',
    ])
      expect([id, statusOf(captured, id)]).toEqual([id, 'ok']);
    expect(statusOf(captured, 'agent.composer')).toBe('not_offered');
    expect(statusOf(captured, 'scene.extend')).toBe('not_offered');
    expect(captured.replies.find((r) => r.id === 'reply.search')?.status).toBe('ok');
    expect(captured.buildLabel).toMatch(/^boq_labs-ai-sandbox-frontend_/);

    // The pane was in video mode with Frames before the check (the defaults); it is so again.
    const session = rig.session.context.pages()[0]!;
    await session.locator('.settings-trigger-button').click();
    const checked = await session
      .locator('.cdk-overlay-pane [role=radio][aria-checked=true] mat-icon')
      .evaluateAll((els) => els.map((e) => e.textContent?.trim()));
    await session.keyboard.press('Escape');
    expect(checked).toEqual(expect.arrayContaining(['videocam', 'crop_free']));
  });
});

describe('on every variant and cohort', () => {
  // Every value of every switch, in as few runs as the longest list: run k sets each switch to its k-th value.
  const runs = Math.max(...VARIANT_NAMES.map((n) => VARIANT_VALUES[n].length));
  const configs = Array.from(
    { length: runs - 1 },
    (_, i) =>
      Object.fromEntries(
        VARIANT_NAMES.map((name) => [name, VARIANT_VALUES[name][i + 1] ?? VARIANT_VALUES[name][0]]),
      ) as Partial<Variants>,
  );

  it.each(configs.map((c, i) => [i + 1, c] as const))(
    'finds no drift with the alternative values, run %i',
    async (_, c) => {
      rig.sim.scenario.setVariants(c);
      const found = drifts(await check());
      expect(found, found.join('\n')).toEqual([]);
    },
  );

  it('switches agent mode off as a run does, and checks an agent-only composer as one', async () => {
    rig.sim.scenario.setCohort(email, 'agent_mode');
    const agentMode = await check();
    expect(drifts(agentMode), drifts(agentMode).join('\n')).toEqual([]);
    expect(agentMode.capabilities.find((c) => c.id === 'composer')?.found).toMatch(/agent mode was on/);

    rig.sim.scenario.setCohort(email, 'agent_only');
    const agentOnly = await check();
    expect(agentOnly.arm).toBe('agent-only');
    expect(drifts(agentOnly), drifts(agentOnly).join('\n')).toEqual([]);
    expect(statusOf(agentOnly, 'agent.composer')).toBe('ok');
    expect(statusOf(agentOnly, 'credits.balance')).toBe('ok');
    expect(statusOf(agentOnly, 'settings.pane')).toBe('not_offered');
    expect(statusOf(agentOnly, 'submit.button')).toBe('not_offered');
  });
});

describe('drift', () => {
  /** The capability each switch breaks, and words its finding must hold (the control named). */
  const NAMED: Record<DriftName, readonly [string, RegExp]> = {
    settings_trigger: ['composer', /settings-trigger-button/],
    settings_radios: ['settings.pane', /no mode group/],
    model_menu_icon: ['model.video', /arrow_drop_down/],
    submit_icon: ['submit.button', /arrow_forward/],
    plus_button_icon: ['upload.entry', /\+ button/],
    upload_item_icon: ['upload.entry', /`upload` ligature/],
    empty_frame_chip: ['frames.picker', /empty-chip/],
    mention_tabs: ['mention.picker', /no overlay with tabs/],
    credits_icon: ['credits.balance', /toll/],
    agent_chip: ['agent.chip', /agent-mode-chip/],
    search_reply: ['reply.search', /not a list of rows/],
  };
  // Switches that break different probes share a run; the settings ones, which stop the pane, run alone.
  const RUNS: readonly (readonly DriftName[])[] = [
    [
      'model_menu_icon',
      'submit_icon',
      'plus_button_icon',
      'empty_frame_chip',
      'credits_icon',
      'agent_chip',
      'search_reply',
    ],
    ['settings_radios', 'upload_item_icon', 'mention_tabs'],
    ['settings_trigger'],
  ];

  it('has a named finding for every switch', () => {
    expect([...RUNS.flat()].sort()).toEqual([...DRIFT_NAMES].sort());
  });

  it.each(RUNS.map((r) => [r.join(', '), r] as const))('names the control for %s', async (_, names) => {
    rig.sim.scenario.setDrift(names);
    const report = await check();
    for (const name of names) {
      const [id, words] = NAMED[name];
      const found = [...report.capabilities, ...report.replies].find((c) => c.id === id);
      expect([name, found?.status]).toEqual([name, 'drifted']);
      expect(found?.found).toMatch(words);
    }
  });
});

describe('the capture', () => {
  it('holds the anchors, reply shapes and build label, and no prompt, cookie, token, email, id or media URL', async () => {
    const text = JSON.stringify(captured);
    const bundle = JSON.stringify(captured.capture);
    const cookies = (await rig.session.context.cookies()).map((c) => c.value).filter((v) => v.length >= 8);
    expect(cookies.length).toBeGreaterThan(3);
    for (const secret of [...pageSecrets, 'zebra', 'lighthouse', ...cookies])
      expect(text.includes(secret), `the report holds ${secret.slice(0, 12)}…`).toBe(false);
    expect(bundle).not.toMatch(/Signature=|Expires=|KeyName=|ya29\.|[\w.+-]+@[\w-]+\.[\w.]+/);
    expect(bundle).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);

    const capture = captured.capture!;
    const pane = capture.anchors.find((a) => a.probe === 'settings.pane' && a.anchor.includes('radiogroup'));
    expect(pane?.html.join('')).toMatch(/role="radiogroup"/);
    expect(pane?.html.join('')).toContain('crop_16_9');
    expect(capture.anchors.some((a) => a.probe === 'submit.button' && a.html.join('').includes('arrow_forward'))).toBe(
      true,
    );
    // The picker listed the prompt's image: recorded, masked.
    expect(capture.anchors.find((a) => a.probe === 'mention.picker')?.html.join('')).toMatch(/xxxxx xxxxxxxxxx/);
    const search = capture.replies.find((r) => r.rpc === 'UpteDb');
    expect(search?.seen).toBeGreaterThan(0);
    expect(JSON.stringify(search?.shapes)).toContain('string:uuid');
  });
});
