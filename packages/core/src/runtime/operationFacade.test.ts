// The typed facade (issue 42): each method runs its one operation through `run`, with the same input
// checks, options and result — on the fake runtime, which records what was run.
import fs from 'node:fs';
import { BadParameterError, ContentPolicyError, hasErrorCode } from '@gflow/errors';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { type FakeGflow, createFakeGflow } from '../fake/index.js';
import type { GenerationResult } from '../generation/schemas.js';

const opened: FakeGflow[] = [];
function fake(): FakeGflow {
  const made = createFakeGflow();
  opened.push(made);
  return made;
}
afterEach(async () => {
  for (const gflow of opened.splice(0)) {
    await gflow.close();
    fs.rmSync(gflow.outputDir, { recursive: true, force: true });
  }
});

describe('gflow.images and gflow.videos: run, by name', () => {
  it('each method runs its operation once, with its input', async () => {
    const gflow = fake();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['generateImage', () => gflow.images.generate({ prompt: 'a fox' })],
      ['generateBatch', () => gflow.images.batch({ items: [{ prompt: 'a fox' }, { prompt: 'a hare' }] })],
      ['generateVideo', () => gflow.videos.generate({ prompt: 'a fox runs' })],
      ['extendVideo', () => gflow.videos.extend({ media_id: '3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f', prompt: 'on' })],
      ['generateChain', () => gflow.videos.chain({ links: [{ prompt: 'a fox' }, { prompt: 'it runs' }] })],
      ['makeMovie', () => gflow.videos.movie({ storyboard: { scenes: [{ prompt: 'a fox' }] } })],
      ['stitchVideos', () => gflow.videos.stitch({ inputs: ['a.mp4', 'b.mp4'], output: 'ab.mp4' })],
    ];
    for (const [, call] of calls) await call();
    expect(gflow.calls.map((c) => c.operation)).toEqual(calls.map(([name]) => name));
    expect(gflow.callsOf('generateImage')[0]?.input).toMatchObject({ prompt: 'a fox', count: 1, wait: true });
  });

  it('resolves what run resolves: the envelope, typed by its status', async () => {
    const gflow = fake();
    const image = await gflow.images.generate({ prompt: 'a fox', count: 2 });
    expectTypeOf(image).toEqualTypeOf<GenerationResult>();
    if (image.status !== 'completed') throw new Error(`not completed: ${image.status}`);
    expect(image.files).toHaveLength(2);
    expect(image.media.map((m) => m.file)).toEqual(image.files);
    gflow.failNext('generateVideo', new ContentPolicyError('Flow refused the prompt.'));
    const video = await gflow.videos.generate({ prompt: 'a fox runs' });
    expect(video.status === 'failed' && video.error.type).toMatch(/content-policy$/);
  });

  it('takes run options: the throwing mode and a signal already aborted', async () => {
    const gflow = fake();
    gflow.failNext('extendVideo', new ContentPolicyError('Flow refused the prompt.'));
    const extend = gflow.videos.extend(
      { media_id: '3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f', prompt: 'on' },
      { throwOnFailure: true },
    );
    await expect(extend).rejects.toSatisfy((error) => hasErrorCode(error, 'content-policy'));
    const aborted = await gflow.images.generate({ prompt: 'a fox' }, { signal: AbortSignal.abort() });
    expect(aborted.status).toBe('cancelled');
  });

  it('checks the input as run does: a bad value is a BadParameterError naming it', async () => {
    const gflow = fake();
    const bad = gflow.images.generate({ prompt: 'a fox', count: 9 });
    await expect(bad).rejects.toBeInstanceOf(BadParameterError);
    await expect(bad).rejects.toThrow(/count/);
    expect(gflow.calls).toEqual([]);
  });
});
