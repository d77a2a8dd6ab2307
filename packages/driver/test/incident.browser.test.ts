import { beforeAll, describe, expect, it } from 'vitest';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-incidents');
const email = 'incidents@example.com';
let projectId: string;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

const image = { prompt: 'a quiet harbour', model: 'nano-pro', aspect: '1:1', count: 1 } as const;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('captureIncident', () => {
  it('returns null before any operation ran on the session', async () => {
    expect(await rig.session.captureIncident()).toBeNull();
  });

  it('after a refused submit: the failed page (not about:blank), its ogiZ0b rpc and a PNG', async () => {
    rig.sim.scenario.setFailure(email, 'unusual_activity');
    const error = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
    rig.sim.scenario.clearFailures();
    expect(error).toMatchObject({ exitCode: 10 });
    expect(rig.session.failedInOperation(error)).toBe(true);
    expect(rig.session.failedInOperation(new Error('raised elsewhere'))).toBe(false);

    const snapshot = await rig.session.captureIncident(error);
    expect(snapshot).not.toBeNull();
    expect(snapshot?.operation).toBe('generating an image');
    expect(snapshot?.atFailure).toBe(true);
    expect(snapshot?.problems).toEqual([]);
    expect(snapshot?.url).toContain(`/project/${projectId}`);
    expect(snapshot?.ui?.counts['aisandbox-root']).toBeGreaterThan(0);
    expect(snapshot?.ui?.counts['flow-prompt-box']).toBeGreaterThan(0);
    expect(snapshot?.ui?.settingsTriggerHidden).toBe(false);
    const submit = snapshot?.network.find((e) => e.rpcIds.includes('ogiZ0b'));
    expect(submit).toMatchObject({ outcome: 'ok', status: 200 });
    expect(submit?.responseHead).toContain('UNUSUAL_ACTIVITY');
    expect(submit?.durationMs).toBeGreaterThanOrEqual(0);
    expect(snapshot?.screenshot?.subarray(0, 8).equals(PNG)).toBe(true);
    expect(snapshot?.screenshot?.length).toBeGreaterThan(2_000);
  }, 90_000);

  it('hands the failure snapshot out once, then captures the live page of the last operation', async () => {
    const live = await rig.session.captureIncident(new Error('raised after the operation'));
    expect(live?.atFailure).toBe(false);
    expect(live?.operation).toBe('generating an image');
    expect(live?.ui?.counts['aisandbox-root']).toBeGreaterThan(0);
    expect(live?.network.some((e) => e.rpcIds.includes('ogiZ0b'))).toBe(true);
  }, 30_000);

  it('returns null once the browser is gone', async () => {
    await rig.session.close();
    expect(await rig.session.captureIncident()).toBeNull();
  });
});
