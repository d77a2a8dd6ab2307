// An extension's plan and source, before anything opens: a Veo 3.1 model only; the clip a finished
// video of this profile's catalog with its project, workflow id and length (flow-captures §10: the
// submit names the workflow id, the frame window is the clip's last second).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Catalog, openCatalog } from '@gflow/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveExtendSource } from './extendSource.js';
import { planExtend } from './plan.js';
import { extendVideoInput } from './schemas.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-extend-'));
let catalog: Catalog;
const CLIP = '0a1b2c3d-0000-4000-8000-000000000001';
const IMAGE = '0a1b2c3d-0000-4000-8000-000000000002';
const NO_WORKFLOW = '0a1b2c3d-0000-4000-8000-000000000003';
const NO_LENGTH = '0a1b2c3d-0000-4000-8000-000000000004';
const PROJECT = '0a1b2c3d-0000-4000-8000-0000000000aa';
const WORKFLOW = '0a1b2c3d-0000-4000-8000-0000000000bb';

beforeAll(() => {
  catalog = openCatalog({ path: path.join(dir, 'gflow.db') });
  const video = { profile: 'alice', kind: 'video' as const, flowProjectId: PROJECT, aspectRatio: '9:16' };
  catalog.assets.record({ ...video, flowMediaId: CLIP, flowWorkflowId: WORKFLOW, durationSeconds: 8 });
  catalog.assets.record({ ...video, flowMediaId: NO_WORKFLOW, durationSeconds: 8 });
  catalog.assets.record({ ...video, flowMediaId: NO_LENGTH, flowWorkflowId: WORKFLOW });
  catalog.assets.record({ profile: 'alice', kind: 'image', flowMediaId: IMAGE, flowProjectId: PROJECT });
});

afterAll(() => {
  catalog.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const planOf = (mediaId: string, model?: string) =>
  planExtend(extendVideoInput.parse({ media_id: mediaId, prompt: 'and on it goes', ...(model ? { model } : {}) }));

describe('an extension, before anything opens', () => {
  it('plans one clip with the Veo 3.1 Lite entry by default, or the Veo 3.1 model named; any other model is refused', () => {
    expect(planOf(CLIP)).toMatchObject({ kind: 'extend', model: 'veo_3_1_lite', count: 1, source: { mediaId: CLIP } });
    expect(planOf(CLIP, 'veo-fast').model).toBe('veo_3_1_fast');
    expect(() => planOf(CLIP, 'omni_flash')).toThrow(/Veo 3\.1 models only/);
    expect(() => planOf(CLIP, 'nano2')).toThrow(expect.objectContaining({ code: 'bad-parameter' }));
  });

  it('a media id that is not a Flow id is refused by the schema', () => {
    expect(extendVideoInput.safeParse({ media_id: 'clip.mp4', prompt: 'x' }).success).toBe(false);
  });

  it('reads the source: its project, workflow id, length and aspect', () => {
    expect(resolveExtendSource(catalog, planOf(CLIP), 'alice')).toEqual({
      media_id: CLIP,
      workflow_id: WORKFLOW,
      project_id: PROJECT,
      duration_seconds: 8,
      aspect_ratio: '9:16',
    });
  });

  it('refuses what cannot be extended, naming media_id: unknown (exit 32), an image, no workflow id, no length, another profile', () => {
    const refusal = (mediaId: string, profile = 'alice') => {
      try {
        resolveExtendSource(catalog, planOf(mediaId), profile);
      } catch (error) {
        return error as { code: string; detail: string; extensions: Record<string, unknown> };
      }
      throw new Error('not refused');
    };
    expect(refusal('0a1b2c3d-0000-4000-8000-00000000ffff')).toMatchObject({
      code: 'reference-not-found',
      extensions: { parameter: 'media_id' },
    });
    expect(refusal(CLIP, 'bob').code).toBe('reference-not-found');
    expect(refusal(IMAGE)).toMatchObject({ code: 'bad-parameter', detail: expect.stringMatching(/only a video/) });
    expect(refusal(NO_WORKFLOW).detail).toMatch(/workflow id/);
    expect(refusal(NO_LENGTH).detail).toMatch(/how long/);
  });
});
