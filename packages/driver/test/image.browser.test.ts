import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePng, readImageSize } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';
import type { DriverProgressEvent } from '../src/index.js';

const rig = useRig('driver-image');
const email = 'images@example.com';

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 500, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

describe('generateImage against the simulator', () => {
  it('makes two 3:4 images with the model asked for and downloads true 3:4 files', async () => {
    const project = rig.sim.scenario.createProject(email, { title: 'Images' });
    const phases: DriverProgressEvent[] = [];
    const result = await rig.session.generateImage({
      projectId: project.id,
      prompt: 'a lighthouse at dusk',
      model: 'nano-pro',
      aspect: '3:4',
      count: 2,
      onProgress: (e) => phases.push(e),
    });
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

  it('i2i: uploads a local reference, mentions it with @ and the body carries its id', async () => {
    const project = rig.sim.scenario.createProject(email);
    const file = path.join(rig.profileDir, 'kitten.png');
    await writeFile(file, makePng(320, 320, 'kitten'));
    const result = await rig.session.generateImage({
      projectId: project.id,
      prompt: 'the kitten in a hat',
      model: 'nano2',
      aspect: '16:9',
      count: 1,
      references: [{ path: file }],
    });
    const [upload] = result.uploads;
    expect(upload?.displayName).toMatch(/^kitten-[0-9a-f]{8}\.png$/);
    const call = rig.sim.received.calls('ogiZ0b').at(-1);
    expect(call?.inner).toContain(upload?.mediaId);
    expect(call?.inner).toContain('BELUGA');
    expect(rig.sim.received.calls('maseQ').length).toBeGreaterThan(0);
  });

  it('i2i: references an existing asset in place by media id and display name, without uploading', async () => {
    const project = rig.sim.scenario.createProject(email);
    const { mediaId } = rig.sim.scenario.addUpload(email, project.id, 'harbour-0a1b2c3d.png', makePng(200, 200, 'h'));
    const uploadsBefore = rig.sim.received.calls('maseQ').length;
    const result = await rig.session.generateImage({
      projectId: project.id,
      prompt: 'the harbour at night',
      model: 'nano2-lite',
      aspect: '1:1',
      count: 1,
      references: [{ mediaId, displayName: 'harbour-0a1b2c3d.png' }],
    });
    expect(result.uploads).toEqual([]);
    expect(rig.sim.received.calls('maseQ').length).toBe(uploadsBefore);
    expect(rig.sim.received.calls('ogiZ0b').at(-1)?.inner).toContain(mediaId);
  });

  it('refuses a media-id reference without a display name before clicking anything (36)', async () => {
    const before = rig.sim.received.calls('ogiZ0b').length;
    const projects = rig.sim.scenario.projectsOf(email).length;
    await expect(
      rig.session.generateImage({
        prompt: 'x',
        model: 'nano2',
        aspect: '1:1',
        count: 1,
        references: [{ mediaId: '00000000-0000-4000-8000-000000000000' }],
      }),
    ).rejects.toMatchObject({ exitCode: 36 });
    expect(rig.sim.received.calls('ogiZ0b').length).toBe(before);
    expect(rig.sim.scenario.projectsOf(email).length).toBe(projects);
  });
});
