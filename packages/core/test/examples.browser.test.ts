import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { imageThenVideo } from '../examples/imageThenVideo.js';
import { signInProfile, useHarness } from './simHarness.js';

const h = useHarness();
beforeAll(async () => {
  h.sim.scenario.createAccount({ email: 'example@example.com', credits: 100, uploadTermsAccepted: true });
}, 60_000);

describe('docs/LIBRARY.md example', () => {
  it('runs imageThenVideo against the simulator and produces an image and a video in one project', async () => {
    const gflow = h.gflow('library', { GFLOW_CLI_PROFILE: 'example' });
    await signInProfile(gflow, h.sim, 'example', 'example@example.com');
    const { image, video } = await imageThenVideo(gflow);
    expect(fs.readFileSync(image.files![0]!).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(fs.readFileSync(video.files![0]!).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(video.flow_project_id).toBe(image.flow_project_id);
  }, 180_000);
});
