// The credit quote read before every submit (issue 24): the classic settings pane's cost line and
// the agent-only composer's confirmation, handed to the caller's beforeSubmit hook, which decides
// between the click (`submit`), no click (`stop`: a dry run) and a refusal (a throw).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BudgetExceededError } from '@gflow/errors';
import { useRig } from './helpers/simSession.js';
import type { SubmitQuote } from '../src/generate/types.js';

const rig = useRig('driver-quote');
const email = 'quotes@example.com';
const CREDITS = 5000;

const t2v = { mode: 't2v', prompt: 'waves at dusk', aspect: '9:16', count: 1, timeoutMs: 90_000 } as const;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: CREDITS, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

afterEach(() => {
  rig.sim.scenario.clearFailures(email);
  rig.sim.scenario.setCohort(email, 'classic');
  rig.sim.received.clear();
});

/** A hook that records what it was shown, and the submits the simulator had received by then. */
function recorder(decision: 'submit' | 'stop' | Error) {
  const seen: Array<{ quote: SubmitQuote; submitsBefore: number }> = [];
  return {
    seen,
    hook: async (quote: SubmitQuote) => {
      seen.push({
        quote,
        submitsBefore: rig.sim.received.submits().length + rig.sim.received.calls('agent.run').length,
      });
      if (decision instanceof Error) throw decision;
      return decision;
    },
  };
}

describe('the classic composer: the cost line, before the click', () => {
  it('Omni Flash 720p 8 s ×1 quotes 12 before anything is sent; the balance drops by it', async () => {
    const project = rig.sim.scenario.createProject(email);
    const before = rig.sim.scenario.getCredits(email);
    const { seen, hook } = recorder('submit');
    const result = await rig.session.generateVideo({
      ...t2v,
      projectId: project.id,
      model: 'omni_flash',
      resolution: '720p',
      duration: 8,
      beforeSubmit: hook,
    });
    expect(seen).toEqual([
      {
        quote: { credits: 12, source: 'cost-line', balance: before, text: 'Generating will use 12 credits' },
        submitsBefore: 0,
      },
    ]);
    expect(result.quote).toEqual(seen[0]?.quote);
    expect(result.items).toHaveLength(1);
    expect(rig.sim.scenario.getCredits(email)).toBe(before - 12);
  });

  it('Veo Lite 4 s ×2 quotes 10 (the table, scaled); an image quotes 0', async () => {
    const project = rig.sim.scenario.createProject(email);
    const { seen, hook } = recorder('stop');
    await rig.session.generateVideo({
      ...t2v,
      count: 2,
      projectId: project.id,
      model: 'veo_3_1_lite',
      duration: 4,
      beforeSubmit: hook,
    });
    const image = await rig.session.generateImage({
      prompt: 'a quiet harbour',
      model: 'nano2',
      aspect: '1:1',
      count: 1,
      projectId: project.id,
    });
    expect(seen[0]?.quote.credits).toBe(10);
    expect(image.quote?.credits).toBe(0);
    expect(image.items).toHaveLength(1);
  });

  it('stop (a dry run): nothing is clicked or sent, the uploads it made are reported, nothing is spent', async () => {
    const project = rig.sim.scenario.createProject(email);
    const before = rig.sim.scenario.getCredits(email);
    const { hook } = recorder('stop');
    const result = await rig.session.generateVideo({
      ...t2v,
      projectId: project.id,
      model: 'omni_flash',
      beforeSubmit: hook,
    });
    expect(result).toMatchObject({ stopped: 'before-submit', items: [], arm: 'classic', projectId: project.id });
    expect(result.quote?.credits).toBe(12);
    expect(rig.sim.received.submits()).toEqual([]);
    expect(rig.sim.scenario.getCredits(email)).toBe(before);
  });

  it('a throw (a refusal) propagates with nothing sent', async () => {
    const project = rig.sim.scenario.createProject(email);
    const { hook } = recorder(new BudgetExceededError('over budget'));
    await expect(
      rig.session.generateImage({
        prompt: 'refused',
        model: 'nano-pro',
        aspect: '1:1',
        count: 2,
        projectId: project.id,
        beforeSubmit: hook,
      }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    expect(rig.sim.received.submits()).toEqual([]);
    // The session is usable afterwards.
    const again = await rig.session.generateImage({
      prompt: 'after a refusal',
      model: 'nano-pro',
      aspect: '1:1',
      count: 2,
      projectId: project.id,
    });
    expect(again.quote?.credits).toBe(10);
  });

  it('no cost line (no_cost_line [U]): the hook is shown credits null and the run goes on', async () => {
    rig.sim.scenario.setFailure(email, 'no_cost_line');
    const project = rig.sim.scenario.createProject(email);
    const { seen, hook } = recorder('submit');
    const result = await rig.session.generateImage({
      prompt: 'unquoted',
      model: 'nano2',
      aspect: '1:1',
      count: 1,
      projectId: project.id,
      beforeSubmit: hook,
    });
    expect(seen[0]?.quote).toMatchObject({ credits: null, source: 'cost-line', text: null });
    expect(result.items).toHaveLength(1);
  });
});

describe('the agent-only composer: the confirmation, before the approval', () => {
  it('a video turn: the hook sees the quote at the confirmation; stop rejects it, nothing is made or charged', async () => {
    rig.sim.scenario.setCohort(email, 'agent_only');
    const project = rig.sim.scenario.createProject(email);
    const before = rig.sim.scenario.getCredits(email);
    const { seen, hook } = recorder('stop');
    const result = await rig.session.generateVideo({
      ...t2v,
      projectId: project.id,
      model: 'veo_3_1_fast',
      beforeSubmit: hook,
    });
    expect(seen[0]?.quote).toMatchObject({ credits: 20, source: 'agent-confirmation', balance: before });
    expect(result).toMatchObject({ arm: 'agent-only', stopped: 'agent-confirmation', items: [] });
    expect(rig.sim.received.calls('agent.reject')).toHaveLength(1);
    expect(rig.sim.received.calls('agent.run')).toHaveLength(0);
    expect(rig.sim.scenario.getCredits(email)).toBe(before);
  });

  it('a video turn refused at the confirmation: rejected, the error propagates', async () => {
    rig.sim.scenario.setCohort(email, 'agent_only');
    const project = rig.sim.scenario.createProject(email);
    const { hook } = recorder(new BudgetExceededError('over budget'));
    await expect(
      rig.session.generateVideo({ ...t2v, projectId: project.id, beforeSubmit: hook }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    expect(rig.sim.received.calls('agent.reject')).toHaveLength(1);
    expect(rig.sim.received.calls('agent.run')).toHaveLength(0);
  });

  it('a video turn approved: the quote is on the result', async () => {
    rig.sim.scenario.setCohort(email, 'agent_only');
    const project = rig.sim.scenario.createProject(email);
    const { hook } = recorder('submit');
    const result = await rig.session.generateVideo({ ...t2v, projectId: project.id, beforeSubmit: hook });
    expect(result.quote).toMatchObject({ credits: 10, source: 'agent-confirmation' });
    expect(result.agentQuotedCredits).toBe(10);
    expect(result.items).toHaveLength(1);
  });

  it('an image turn (no confirmation to come): the hook decides before the directive; stop sends nothing', async () => {
    rig.sim.scenario.setCohort(email, 'agent_only');
    const project = rig.sim.scenario.createProject(email);
    const { seen, hook } = recorder('stop');
    const result = await rig.session.generateImage({
      prompt: 'a kite',
      model: 'nano2',
      aspect: '1:1',
      count: 1,
      projectId: project.id,
      beforeSubmit: hook,
    });
    expect(seen[0]?.quote).toMatchObject({ credits: null, source: 'none' });
    expect(result).toMatchObject({ stopped: 'before-submit', items: [] });
    expect(rig.sim.received.calls('agent.turn')).toHaveLength(0);
  });
});
