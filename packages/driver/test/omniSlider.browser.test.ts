// Omni 1.2 Flash (issue 21): every integer duration 3–15 s through its slider — driven with the
// keyboard, the announced value verified before the submit, the duration checked in the body.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VARIANT_VALUES } from '@gflow/flow-sim';
import { type SimRig, startRig } from './helpers/simSession.js';

let rig: SimRig;
const email = 'omni12@example.com';
const free = 'omni12-free@example.com';

beforeAll(async () => {
  rig = await startRig('driver-omni12');
  rig.sim.scenario.createAccount({ email, credits: 5000, tier: 'pro' });
  await rig.signIn(email);
}, 60_000);

afterEach(() => rig.sim.scenario.resetVariants());
afterAll(async () => {
  await rig?.close();
});

const base = { mode: 't2v', model: 'omni_1_2_flash', aspect: '16:9', count: 1, timeoutMs: 120_000 } as const;

describe('Omni 1.2 Flash duration slider', { timeout: 120_000 }, () => {
  it.each(VARIANT_VALUES.omni12Key)('11 s on the slider goes out in the body (key prefix %s [U])', async (prefix) => {
    rig.sim.scenario.setVariants({ omni12Key: prefix });
    const project = rig.sim.scenario.createProject(email);
    const result = await rig.session.generateVideo({
      ...base,
      projectId: project.id,
      prompt: 'eleven seconds of surf',
      duration: 11,
    });
    expect(result.items[0]?.modelKey).toBe(`${prefix}_t2v_11s`);
    expect(rig.sim.received.calls('YhhmEf').at(-1)?.inner).toContain(`${prefix}_t2v_11s`);
  });

  it('3 and 15 s, the ends of the range', async () => {
    const project = rig.sim.scenario.createProject(email);
    for (const duration of [3, 15]) {
      const result = await rig.session.generateVideo({
        ...base,
        projectId: project.id,
        prompt: `${duration} seconds`,
        duration,
      });
      expect(result.items[0]?.modelKey).toMatch(new RegExp(`_t2v_${duration}s$`));
    }
  });

  it('above 10 s without a Google AI plan: refused before the submit (11), nothing sent', async () => {
    rig.sim.scenario.createAccount({ email: free, credits: 5000, tier: 'free' });
    await rig.signIn(free);
    try {
      const project = rig.sim.scenario.createProject(free);
      const before = rig.sim.received.submits().length;
      const error = await rig.session
        .generateVideo({ ...base, projectId: project.id, prompt: 'too long for free', duration: 12 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ exitCode: 11, message: expect.stringContaining('3–10 s') });
      expect(rig.sim.received.submits().length).toBe(before);
    } finally {
      await rig.signIn(email);
    }
  });
});
