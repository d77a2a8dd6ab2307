// A submit whose reply is lost (seed 000 #1112, #1141) or answered [5] while the job is queued
// (flow-captures.md §9): the driver follows the job to its clip through the project's own listing
// and completes, `recovered: true` — where the run can be named; otherwise exit 7, not retryable.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { makePng } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-lost-reply');
const email = 'lost-reply@example.com';
let projectId: string;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

afterEach(() => rig.sim.scenario.clearFailures());

const t2v = { mode: 't2v', model: 'veo_3_1_lite', duration: 8, aspect: '16:9', count: 1, timeoutMs: 120_000 } as const;

describe('a lost submit reply is followed to its clip', { timeout: 120_000 }, () => {
  it('i2v that uploaded its start frame (#1112): the clip is found, downloaded, recovered: true, billed once', async () => {
    const frame = path.join(rig.profileDir, 'lost-frame.png');
    await writeFile(frame, makePng(320, 180, 'lost-frame'));
    rig.sim.scenario.setFailure(email, 'unreadable_submit_reply', { times: 1 });
    const submits = rig.sim.received.submits().length;
    const result = await rig.session.generateVideo({
      ...t2v,
      mode: 'i2v',
      projectId,
      prompt: 'the lost frame comes alive',
      startFrame: { path: frame },
    });
    expect(result.recovered).toBe(true);
    expect(result.items).toHaveLength(1);
    const file = await rig.session.download(result.items[0]!.url, {
      kind: 'video',
      fallbackUrl: result.items[0]!.posterUrl ?? null,
    });
    expect(file.extension).toBe('.mp4');
    expect(rig.sim.received.submits().length).toBe(submits + 1);
  });

  it('a one-clip t2v (#1141): found by its exact prompt and model', async () => {
    rig.sim.scenario.setFailure(email, 'unreadable_submit_reply', { times: 1 });
    const result = await rig.session.generateVideo({ ...t2v, projectId, prompt: `a lost reply at ${Date.now()}` });
    expect(result.recovered).toBe(true);
    expect(result.items[0]?.prompt).toMatch(/^a lost reply at/);
  });

  it('t2v with count 2 cannot be named with certainty: WireFormatError (7), not retryable, may have spent', async () => {
    rig.sim.scenario.setFailure(email, 'unreadable_submit_reply', { times: 1 });
    const error = await rig.session
      .generateVideo({ ...t2v, count: 2, projectId, prompt: 'two lost clips' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      exitCode: 7,
      extensions: expect.objectContaining({ may_have_spent: true, reply_unreadable: true }),
    });
    expect(isRetryable(error)).toBe(false);
  });

  it('MZZa6b answering [5] while the job is queued (a character reference): followed to its clip', async () => {
    const character = rig.sim.scenario.addCharacter(projectId, { displayName: 'Quiet Sailor' });
    rig.sim.scenario.setFailure(email, 'mzza6b_null_status', { times: 1 });
    const result = await rig.session.generateVideo({
      ...t2v,
      mode: 'r2v',
      projectId,
      prompt: 'the sailor waves',
      characters: [{ entityId: character.entityId, displayName: 'Quiet Sailor' }],
    });
    expect(result.recovered).toBe(true);
    expect(result.submitRpc).toBe('MZZa6b');
  });
});
