import fs from 'node:fs';
import { BadParameterError, ContentPolicyError, ProfileLockedError, RateLimitError, hasErrorCode } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../operations/everyOperation.js';
import { type FakeGflow, createFakeGflow } from './index.js';

const opened: FakeGflow[] = [];
const fake = (...args: Parameters<typeof createFakeGflow>) => {
  const made = createFakeGflow(...args);
  opened.push(made);
  return made;
};
afterEach(async () => {
  for (const gflow of opened.splice(0)) {
    await gflow.close();
    fs.rmSync(gflow.outputDir, { recursive: true, force: true });
  }
});

/** A small input each operation's schema takes (its required members). */
const INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
  generateBatch: { items: [{ prompt: 'a fox' }, { prompt: 'a hare' }] },
  generateChain: { links: [{ prompt: 'a fox' }, { prompt: 'it runs' }] },
  instructionsApply: {
    project: '3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f',
    cards: [{ title: 'Style', text: 'warm light' }],
  },
  runPromptTools: { prompt: 'a fox', tools: [{ name: 'creative-director' }] },
  stitchVideos: { inputs: ['a.mp4', 'b.mp4'], output: 'ab.mp4' },
};
const CANDIDATES = [
  'a fox',
  'fake-media-1',
  '3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f',
  1,
  true,
  ['a fox'],
  [{ prompt: 'a fox' }],
  '2k',
  '1080p',
  'image',
  'default',
];
function minimalInput(name: string): Record<string, unknown> {
  if (INPUTS[name]) return INPUTS[name];
  const op = OPERATIONS.find((o) => o.name === name)!;
  const input: Record<string, unknown> = {};
  const shape = op.input.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  for (const [key, member] of Object.entries(shape)) {
    if (member.safeParse(undefined).success) continue;
    const fit = CANDIDATES.find((candidate) => member.safeParse(candidate).success);
    if (fit !== undefined) input[key] = fit;
  }
  return input;
}

describe('@gflow/core/testing: the fake runtime (issue 42)', () => {
  it.each(OPERATIONS.map((op) => op.name))('%s answers with a result its output schema accepts', async (name) => {
    const gflow = fake();
    const op = OPERATIONS.find((o) => o.name === name)!;
    const result = await gflow.runByName(name, minimalInput(name));
    expect(op.output.safeParse(result).success).toBe(true);
    expect(gflow.callsOf(name as never)).toHaveLength(1);
  });

  it('a generation is completed with ids and one file per result, under its output directory', async () => {
    const gflow = fake({ writeFiles: true });
    const image = await gflow.run('generateImage', { prompt: 'a fox', count: 2 });
    expect(image).toMatchObject({ status: 'completed', task_id: expect.stringMatching(/^fake-task-/) });
    expect(image.flow_media_id).toMatch(/^fake-media-/);
    expect(image.files).toHaveLength(2);
    for (const file of image.files ?? []) {
      expect(file.startsWith(gflow.outputDir)).toBe(true);
      expect(fs.readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
    const video = await gflow.run('gflow_generate_video', { prompt: 'a fox runs' });
    expect(video.files?.[0]).toMatch(/\.mp4$/);
    expect(fs.readFileSync(video.files![0]!).subarray(4, 8).toString()).toBe('ftyp');
  });

  it('a batch answers one item per prompt', async () => {
    const batch = await fake().run('generateBatch', { items: [{ prompt: 'a' }, { prompt: 'b' }, { prompt: 'c' }] });
    expect(batch.items).toHaveLength(3);
  });

  it('checks input as the real runtime does', async () => {
    const gflow = fake();
    // @ts-expect-error a wrong aspect does not compile, and the schema refuses it at run time too
    await expect(gflow.run('generateImage', { prompt: 'a fox', aspect: 'sideways' })).rejects.toBeInstanceOf(
      BadParameterError,
    );
    expect(gflow.calls).toEqual([]);
  });

  it('failNext: a generation resolves the failure envelope once, then answers again', async () => {
    const gflow = fake();
    gflow.failNext('generateVideo', new RateLimitError('Flow asked to slow down.'));
    const failed = await gflow.run('generateVideo', { prompt: 'a fox runs' });
    expect(failed).toMatchObject({
      status: 'rate_limited',
      error: { retryable: true, detail: 'Flow asked to slow down.' },
    });
    await expect(gflow.run('generateVideo', { prompt: 'a fox runs' })).resolves.toMatchObject({ status: 'completed' });
  });

  it('failNext with throwOnFailure, or { throws: true }, or an operation without an envelope: it throws the typed error', async () => {
    await expect(
      fake({ throwOnFailure: true })
        .failNext('generateImage', new ContentPolicyError('refused'))
        .run('generateImage', { prompt: 'a fox' }),
    ).rejects.toBeInstanceOf(ContentPolicyError);
    await expect(
      fake()
        .failNext('generateImage', new ProfileLockedError('busy'), { throws: true })
        .run('generateImage', { prompt: 'a fox' }),
    ).rejects.toSatisfy((error: unknown) => hasErrorCode(error, 'profile-locked'));
    await expect(
      fake().failNext('listModels', new RateLimitError('slow')).run('listModels', {}),
    ).rejects.toBeInstanceOf(RateLimitError);
  });

  it('respond: a scripted answer, checked against the output schema', async () => {
    const gflow = fake();
    gflow.respond(
      'getCredits',
      (input) => ({ status: 'ok', profile: input.profile ?? 'default', credits: 7 }) as never,
    );
    await expect(gflow.run('getCredits', {})).resolves.toMatchObject({ credits: 7 });
    gflow.respond('listModels', { status: 'nope' } as never);
    await expect(gflow.run('listModels', {})).rejects.toThrow(/does not fit its output schema/);
  });
});
