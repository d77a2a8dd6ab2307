import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImageSize } from '@gflow/flow-sim';
import { type SimRig, startRig } from './helpers/simSession.js';
import type { ProgressEvent } from '../src/index.js';

let rig: SimRig;
const email = 'images@example.com';

beforeAll(async () => {
  rig = await startRig('driver-image');
  rig.sim.scenario.createAccount({ email, credits: 500 });
  await rig.signIn(email);
}, 60_000);

afterAll(async () => {
  await rig?.close();
});

describe('generateImage against the simulator', () => {
  it('makes two 3:4 images with the model asked for and downloads true 3:4 files', async () => {
    const project = rig.sim.scenario.createProject(email, { title: 'Images' });
    const phases: ProgressEvent[] = [];
    const result = await rig.session.generateImage({ projectId: project.id, prompt: 'a lighthouse at dusk', model: 'nano-pro', aspect: '3:4', count: 2, onProgress: (e) => phases.push(e) });
    expect(result.projectId).toBe(project.id);
    expect(result.submitRpc).toBe('ogiZ0b');
    expect(result.items).toHaveLength(2);
    const sent = rig.sim.received.calls('ogiZ0b');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.inner).toContain('GEM_PIX_2');
    for (const item of result.items) {
      expect(item.modelKey).toBe('GEM_PIX_2');
      const file = await rig.session.download(item.url, { kind: 'image', mediaId: item.mediaId });
      const info = readImageSize(file.bytes);
      expect(info).not.toBeNull();
      expect((info?.width ?? 0) * 4).toBe((info?.height ?? 0) * 3);
      expect(file.extension).toMatch(/^\.(jpg|png)$/);
    }
    const names = phases.map((p) => p.phase);
    expect(names.indexOf('submitting')).toBeGreaterThan(names.indexOf('configuring'));
    expect(phases.find((p) => p.phase === 'configuring')?.mayHaveSpent).toBe(false);
    expect(phases.find((p) => p.phase === 'submitting')?.mayHaveSpent).toBe(true);
  });
});
