// The agent-only composer (flow-wire §4, seed 000 §6.1 / #799): text-to-image and text-to-video
// through Flow's chat agent, the agent's settings restored afterwards, and every way the agent can
// do something other than what was asked refused with nothing approved.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { isMp4 } from '@gflow/flow-facts';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-agent-only');
const email = 'agentonly@example.com';
let projectId: string;

const CLASSIC_SUBMITS = ['ogiZ0b', 'YhhmEf', 'eb1hJf', 'nprQif', 'MZZa6b'];
const calls = (id: string): number => rig.sim.received.calls(id).length;
const t2v = { mode: 't2v', prompt: 'a lighthouse at dusk', aspect: '9:16', count: 1, timeoutMs: 90_000 } as const;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, cohort: 'agent_only' });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

afterEach(() => {
  rig.sim.scenario.clearFailures(email);
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.setLocale('en-US');
  rig.sim.scenario.setCohort(email, 'agent_only');
});

describe('agent-only composer: generation through the agent', () => {
  it('t2i 9:16 ×2: the agent makes two portrait images, found on the page; settings restored', async () => {
    const before = rig.sim.scenario.agentSettingsOf(projectId);
    const result = await rig.session.generateImage({
      prompt: 'a red kite over dunes',
      model: 'nano2',
      aspect: '9:16',
      count: 2,
      projectId,
    });
    expect(result.arm).toBe('agent-only');
    expect(result.items).toHaveLength(2);
    const made = rig.sim.scenario.mediaOf(projectId).slice(0, 2);
    expect(new Set(result.items.map((i) => i.mediaId))).toEqual(new Set(made.map((m) => m.id)));
    expect(made.every((m) => m.height > m.width)).toBe(true);
    expect(result.items.every((i) => i.seed === 0 && i.workflowId === null)).toBe(true);
    const bytes = await rig.session.download(result.items[0]?.url ?? '', { kind: 'image' });
    expect(bytes.bytes.length).toBeGreaterThan(1000);
    // The run set 9:16 and ×2, and put back what was there.
    expect(rig.sim.scenario.agentSettingsOf(projectId)).toEqual(before);
    expect(rig.sim.received.calls('agent.settings').length).toBe(2);
    for (const id of CLASSIC_SUBMITS) expect(calls(id)).toBe(0);
  });

  it('t2v: the credit confirmation quoting one clip is approved; the clip downloads as MP4', async () => {
    const credits = rig.sim.scenario.getCredits(email);
    const result = await rig.session.generateVideo({ ...t2v, projectId, model: 'veo_3_1_fast' });
    expect(result.items).toHaveLength(1);
    expect(result.agentQuotedCredits).toBe(20);
    expect(rig.sim.scenario.getCredits(email)).toBe(credits - 20);
    const item = result.items[0];
    expect(rig.sim.scenario.mediaOf(projectId)[0]).toMatchObject({ id: item?.mediaId, kind: 'video' });
    const clip = await rig.session.download(item?.url ?? '', { kind: 'video' });
    expect(isMp4(clip.bytes)).toBe(true);
    expect(rig.sim.scenario.agentSettingsOf(projectId).videoModel).toBe('Veo 3.1 - Lite');
  });

  it('opaque /asb/ tiles and a German UI: ids come from the redirect and the chat poster', async () => {
    rig.sim.scenario.setVariants({ agentTileSrc: 'asb', videoTileSrc: 'asb-redirect' });
    rig.sim.scenario.setLocale('de-DE');
    // The page reads the variants and the locale as it loads: a project of its own, so the run
    // loads one (the warm page of the last run, on another project, is not reused).
    const projectId = rig.sim.scenario.createProject(email).id;
    const image = await rig.session.generateImage({
      prompt: 'a blue door',
      model: 'nano2',
      aspect: '1:1',
      count: 1,
      projectId,
    });
    expect(image.items[0]?.mediaId).toBe(rig.sim.scenario.mediaOf(projectId)[0]?.id);
    const video = await rig.session.generateVideo({ ...t2v, projectId });
    expect(video.items[0]?.mediaId).toBe(rig.sim.scenario.mediaOf(projectId)[0]?.id);
    expect(isMp4((await rig.session.download(video.items[0]?.url ?? '', { kind: 'video' })).bytes)).toBe(true);
  });

  it('"Confirm before generating" follows the request (never), and is put back to Always', async () => {
    const result = await rig.session.generateVideo({ ...t2v, projectId, agentConfirm: 'never' });
    expect(result.items).toHaveLength(1);
    expect(result.agentQuotedCredits).toBeUndefined();
    expect(rig.sim.scenario.agentSettingsOf(projectId).confirm).toBe('always');
  });

  it('an image confirmation (agentImageGate variant) is read and approved', async () => {
    rig.sim.scenario.setVariants({ agentImageGate: 'confirm' });
    // Read by the page as it loads, as above.
    const projectId = rig.sim.scenario.createProject(email).id;
    const result = await rig.session.generateImage({
      prompt: 'a green bottle',
      model: 'nano-pro',
      aspect: '4:3',
      count: 1,
      projectId,
    });
    expect(result.items).toHaveLength(1);
    expect(result.submitBody).toContain('Nano Banana Pro');
  });
});

describe('agent-only composer: the agent doing something else is refused, nothing approved', () => {
  async function refused(run: () => Promise<unknown>, exitCode: number) {
    const error = await run().catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode });
    expect(isRetryable(error)).toBe(false);
    return error as { detail: string; extensions: Record<string, unknown> };
  }

  it('a confirmation quoting more clips than asked is rejected (25)', async () => {
    rig.sim.scenario.setFailure(email, 'agent_quote_more', { times: 1 });
    rig.sim.scenario.setAgentSettings(projectId, { videoAspect: '16:9', videoModel: 'Veo 3.1 - Quality' });
    const settings = rig.sim.scenario.agentSettingsOf(projectId);
    const credits = rig.sim.scenario.getCredits(email);
    const runs = calls('agent.run');
    const error = await refused(() => rig.session.generateVideo({ ...t2v, projectId }), 25);
    expect(error.detail).toMatch(/quotes 2 video/);
    expect(error.extensions['agent_quote']).toMatch(/2/);
    expect(calls('agent.reject')).toBeGreaterThan(0);
    expect(calls('agent.run')).toBe(runs);
    expect(rig.sim.scenario.getCredits(email)).toBe(credits);
    // Restored also when the run failed.
    expect(rig.sim.scenario.agentSettingsOf(projectId)).toEqual(settings);
  });

  it('a second confirmation is rejected (25)', async () => {
    rig.sim.scenario.setFailure(email, 'agent_second_confirm', { times: 1 });
    const error = await refused(() => rig.session.generateVideo({ ...t2v, projectId }), 25);
    expect(error.detail).toMatch(/second credit confirmation/);
  });

  it('a video confirmation whose count cannot be read is not approved and stays open (25)', async () => {
    rig.sim.scenario.setFailure(email, 'agent_unreadable_count', { times: 1 });
    const rejects = calls('agent.reject');
    const error = await refused(() => rig.session.generateVideo({ ...t2v, projectId }), 25);
    expect(error.detail).toMatch(/still open in Flow/);
    expect(calls('agent.reject')).toBe(rejects);
    const page = rig.session.context.pages()[0];
    expect(await page?.locator('flow-permission-message:not(.read-only)').count()).toBe(1);
  });

  it('more results than asked (25) names them; an image turn that made nothing (25)', async () => {
    rig.sim.scenario.setFailure(email, 'agent_extra_results', { times: 1 });
    const image = { prompt: 'a yellow kite', model: 'nano2', aspect: '16:9', count: 1, projectId } as const;
    const extra = await refused(() => rig.session.generateImage(image), 25);
    expect(extra.extensions['flow_media_ids']).toHaveLength(2);
    rig.sim.scenario.setFailure(email, 'agent_no_result', { times: 1 });
    const none = await refused(() => rig.session.generateImage(image), 25);
    expect(none.detail).toMatch(/without making an image/);
    expect(String(none.extensions['agent_reply'])).toMatch(/could not make that/);
  });

  it('a video turn that made nothing is a transport timeout, not retryable (it was sent)', async () => {
    rig.sim.scenario.setFailure(email, 'agent_no_result', { times: 1 });
    const error = await refused(() => rig.session.generateVideo({ ...t2v, projectId }), 9);
    expect(error.extensions['may_have_spent']).toBe(true);
  });

  it('forms the agent cannot take are refused (36) after three free reloads, nothing clicked', async () => {
    const turns = calls('agent.turn');
    rig.logs.length = 0;
    const error = await refused(() => rig.session.generateVideo({ ...t2v, projectId, count: 2 }), 36);
    expect(error.detail).toMatch(/more than one video/);
    expect(rig.logs.filter((l) => l.includes('reloading in case Flow serves the classic one'))).toHaveLength(3);
    await refused(() => rig.session.generateVideo({ ...t2v, projectId, duration: 6 }), 36);
    await refused(() => rig.session.generateVideo({ ...t2v, projectId, model: 'omni_1_2_flash' }), 36);
    expect(calls('agent.turn')).toBe(turns);
  });

  it('a reload that serves the classic composer is taken: the run goes on there', async () => {
    rig.sim.scenario.setCohort(email, 'classic');
    rig.sim.scenario.setFailure(email, 'agent_only_loads', { times: 2 });
    rig.logs.length = 0;
    const result = await rig.session.generateVideo({ ...t2v, projectId, count: 2 });
    expect(result.arm).toBe('classic');
    expect(result.items).toHaveLength(2);
    expect(rig.logs.filter((l) => l.includes('reloading in case Flow serves the classic one'))).toHaveLength(2);
  });
});
