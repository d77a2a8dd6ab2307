// A storyboard checked whole before anything is sent: each scene's clip (t2v, i2v from the scene
// before or an image, r2v with named characters, an existing video) with its extensions, every
// problem named by scene and field, with the exit code of its kind (32 for an unknown media id).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Catalog, openCatalog } from '@gflow/catalog';
import { exitCodeOf } from '@gflow/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storySteps } from '../runs/index.js';
import { type NamedCharacter, checkOneAspect, planStory } from './planStory.js';
import { parseStoryboard } from './storyboard.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-plan-story-'));
let catalog: Catalog;
const CLIP = '0a1b2c3d-0000-4000-8000-000000000001';
const NOT_DOWNLOADED = '0a1b2c3d-0000-4000-8000-000000000002';
const IMAGE = '0a1b2c3d-0000-4000-8000-000000000003';
const PROJECT = '0a1b2c3d-0000-4000-8000-0000000000aa';
const STILL = path.join(dir, 'still.png');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(() => {
  catalog = openCatalog({ path: path.join(dir, 'gflow.db') });
  const video = { profile: 'alice', kind: 'video' as const, flowProjectId: PROJECT, durationSeconds: 8 };
  const clip = catalog.assets.record({ ...video, flowMediaId: CLIP, flowWorkflowId: 'wf-1' });
  const file = path.join(dir, 'clip.mp4');
  fs.writeFileSync(file, 'clip bytes');
  catalog.localFiles.record({ assetId: clip.id, path: file, bytes: fs.statSync(file).size });
  catalog.assets.record({ ...video, flowMediaId: NOT_DOWNLOADED, flowWorkflowId: 'wf-2' });
  catalog.assets.record({ profile: 'alice', kind: 'image', flowMediaId: IMAGE, flowProjectId: PROJECT });
  fs.writeFileSync(STILL, PNG);
});

afterAll(() => {
  catalog.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const asked: string[] = [];
const CAST: NamedCharacter[] = [
  { entityId: 'ent-mara', name: 'Mara' },
  { entityId: 'ent-ro-1', name: 'Ro' },
  { entityId: 'ent-ro-2', name: 'ro' },
];
const planning = {
  get catalog() {
    return catalog;
  },
  profile: 'alice',
  cwd: dir,
  characters: async (project: string) => {
    asked.push(project);
    return CAST;
  },
};

const plan = (board: unknown) => planStory(parseStoryboard(board), planning);

async function refusal(board: unknown): Promise<{ exit: number; parameter: unknown; detail: string }> {
  try {
    await plan(board);
  } catch (error) {
    const e = error as { detail: string; extensions: Record<string, unknown> };
    return { exit: exitCodeOf(error), parameter: e.extensions['parameter'], detail: e.detail };
  }
  throw new Error('the storyboard was planned');
}

describe('planning a story', () => {
  it('turns scenes into clips and extensions: t2v, i2v from the scene before or a file, r2v with characters, an existing video', async () => {
    const story = await plan({
      title: 'The keeper',
      project: PROJECT,
      model: 'veo_lite',
      scenes: [
        { prompt: 'dawn', extend: ['on', { prompt: 'and on', model: 'veo_fast' }] },
        { prompt: 'stairs', start: 'previous' },
        { prompt: 'still', start: STILL },
        { prompt: 'Mara at the window', characters: ['mara'], duration: 8 },
        { media_id: CLIP, title: 'archive', extend: ['the archive goes on'] },
      ],
    });
    expect(asked).toEqual([PROJECT]);
    expect(story.project).toBe(PROJECT);
    const clips = story.scenes.map((s) => (s.clip.from === 'generate' ? [s.clip.input.mode, s.clip.start] : ['media']));
    expect(clips).toEqual([['t2v', null], ['i2v', 'previous'], ['i2v', null], ['r2v', null], ['media']]);
    const r2v = story.scenes[3]?.clip;
    expect(r2v?.from === 'generate' && r2v.input).toMatchObject({
      reference_entities: ['ent-mara'],
      reference_entity_names: ['Mara'],
      aspect: '16:9',
      model: 'veo_lite',
    });
    expect(story.scenes[0]?.extends).toEqual([
      { prompt: 'on', model: 'veo_lite' },
      { prompt: 'and on', model: 'veo_fast' },
    ]);
    expect(story.scenes[4]?.clip).toMatchObject({ from: 'media', media_id: CLIP, file: path.join(dir, 'clip.mp4') });
    expect(storySteps(story.scenes).map((s) => `${s.scene}:${s.kind}`)).toEqual([
      '0:clip',
      '0:extend',
      '0:extend',
      '1:clip',
      '2:clip',
      '3:clip',
      '4:extend',
    ]);
  });

  it("makes its clips in the first scene's project when it starts over an existing video, else a new one", async () => {
    expect((await plan({ scenes: [{ media_id: CLIP, extend: ['on'] }] })).project).toBe(PROJECT);
    expect((await plan({ scenes: [{ prompt: 'a' }] })).project).toBeNull();
  });

  it('refuses every problem naming its scene and field, each with its exit code', async () => {
    expect(await refusal({ scenes: [{ prompt: 'a', start: 'previous' }] })).toMatchObject({
      exit: 2,
      parameter: 'scenes[0].start',
    });
    expect(await refusal({ scenes: [{ prompt: 'a' }, { prompt: 'b', start: './missing.png' }] })).toMatchObject({
      exit: 2,
      parameter: 'scenes[1].start',
    });
    expect(await refusal({ scenes: [{ prompt: 'a', characters: ['Mara'] }] })).toMatchObject({
      parameter: 'scenes[0].characters',
    });
    const nobody = await refusal({ project: PROJECT, scenes: [{ prompt: 'a', characters: ['Nobody'] }] });
    expect(nobody).toMatchObject({ exit: 2, parameter: 'scenes[0].characters' });
    expect(nobody.detail).toMatch(/"Mara", "Ro", "ro"/);
    expect((await refusal({ project: PROJECT, scenes: [{ prompt: 'a', characters: ['RO'] }] })).detail).toMatch(
      /ent-ro-1, ent-ro-2/,
    );
    expect(
      await refusal({ scenes: [{ media_id: '0a1b2c3d-0000-4000-8000-00000000ffff', extend: ['a'] }] }),
    ).toMatchObject({ exit: 32, parameter: 'scenes[0].media_id' });
    expect(await refusal({ scenes: [{ media_id: IMAGE, extend: ['a'] }] })).toMatchObject({
      exit: 2,
      parameter: 'scenes[0].media_id',
    });
    expect((await refusal({ scenes: [{ media_id: NOT_DOWNLOADED, extend: ['a'] }] })).parameter).toBe(
      'scenes[0].media_id',
    );
    expect(await refusal({ scenes: [{ prompt: 'a', media_id: CLIP }] })).toMatchObject({ parameter: 'scenes[0]' });
    expect(await refusal({ scenes: [{ media_id: CLIP, model: 'veo_lite' }] })).toMatchObject({
      parameter: 'scenes[0].model',
    });
    expect(await refusal({ scenes: [{ media_id: CLIP }] })).toMatchObject({ parameter: 'scenes' });
    expect(await refusal({ scenes: [{ prompt: 'a', extend: [{ prompt: 'b', model: 'omni_flash' }] }] })).toMatchObject({
      parameter: 'scenes[0].extend[0].model',
    });
    expect(await refusal({ scenes: [{ prompt: 'a', model: 'veo_lite', duration: 5 }] })).toMatchObject({
      exit: 2,
      parameter: 'scenes[0].duration',
    });
    const long = { scenes: Array.from({ length: 4 }, () => ({ prompt: 'a', extend: Array(8).fill('b') })) };
    expect((await refusal(long)).detail).toMatch(/36 clips; a movie makes at most 30/);
  });

  it('holds a stitched movie to one aspect, naming the first scene that differs (an unknown aspect is not held)', async () => {
    const mixed = await plan({ aspect: '16:9', scenes: [{ prompt: 'a' }, { prompt: 'b', aspect: '9:16' }] });
    expect(() => checkOneAspect(mixed, planning)).toThrow(/scenes\[1\]\.aspect: this scene is 9:16 and the movie 16:9/);
    const same = await plan({ aspect: '9:16', scenes: [{ prompt: 'a' }, { media_id: CLIP, extend: ['b'] }] });
    expect(() => checkOneAspect(same, planning)).not.toThrow();
  });
});
