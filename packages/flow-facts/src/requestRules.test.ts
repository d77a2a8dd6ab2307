import { describe, expect, it } from 'vitest';
import {
  type VideoRequestFacts,
  judgeImageRequest,
  judgeVideoRequest,
  requireNoViolation,
  violationError,
} from './requestRules.js';

const video = (more: Partial<VideoRequestFacts> = {}): VideoRequestFacts => ({
  prompt: 'a cat',
  mode: 't2v',
  model: undefined,
  aspect: '9:16',
  count: 1,
  duration: undefined,
  resolution: undefined,
  startFrame: undefined,
  endFrame: undefined,
  references: 0,
  characters: [],
  ...more,
});

const first = (verdict: { violations: readonly { parameter: string; code: string }[] }) => verdict.violations[0];

describe('the request rules: one engine, every caller', () => {
  it('a clean video request has no violation, and i2v without a model runs on Veo 3.1 - Lite', () => {
    expect(judgeVideoRequest(video()).violations).toEqual([]);
    const i2v = judgeVideoRequest(video({ mode: 'i2v', startFrame: 'path' }));
    expect(i2v.violations).toEqual([]);
    expect(i2v.model?.name).toBe('veo_3_1_lite');
  });

  it.each([
    [{ mode: 'i2v' as const }, 'initial_frame', 'bad-parameter'],
    [{ mode: 'r2v' as const }, 'reference_images', 'bad-parameter'],
    [{ startFrame: 'path' as const }, 'initial_frame', 'bad-parameter'],
    [{ references: 1 }, 'reference_images', 'bad-parameter'],
    [{ characters: [{ entityId: 'e', name: 'A' }] }, 'reference_entities', 'flow-host-migrated'],
    [
      { mode: 'i2v' as const, startFrame: 'path' as const, endFrame: 'media' as const },
      'end_frame',
      'flow-host-migrated',
    ],
    [{ resolution: '720p', model: 'veo_fast' }, 'resolution', 'bad-parameter'],
    [{ mode: 'r2v' as const, references: 1, model: 'veo_quality' }, 'model', 'model-mode-incompatibility'],
    [{ mode: 'r2v' as const, references: 1, duration: 4 }, 'duration', 'bad-parameter'],
    [{ duration: 7, model: 'veo_fast' }, 'duration', 'bad-parameter'],
    [{ model: 'sora' }, 'model', 'bad-parameter'],
    [{ count: 5 }, 'count', 'bad-parameter'],
    [{ prompt: '  ' }, 'prompt', 'bad-parameter'],
    [{ uiMode: 'agentic' }, 'ui_mode', 'bad-parameter'],
  ])('%j breaks %s (%s)', (more, parameter, code) => {
    expect(first(judgeVideoRequest(video(more)))).toMatchObject({ parameter, code });
  });

  it('r2v on Veo is pinned to 8 s; Omni keeps the duration asked', () => {
    expect(judgeVideoRequest(video({ mode: 'r2v', references: 1 })).duration).toBe(8);
    expect(judgeVideoRequest(video({ mode: 'r2v', references: 1, model: 'omni_flash', duration: 4 })).duration).toBe(4);
  });

  it('image: the model, the host, the caps with characters counted', () => {
    const base = { prompt: 'x', model: 'nano2', aspect: '1:1', count: 1, references: 0, characters: [] };
    expect(judgeImageRequest(base).violations).toEqual([]);
    expect(first(judgeImageRequest({ ...base, model: 'image4' }))).toMatchObject({ code: 'flow-host-migrated' });
    expect(first(judgeImageRequest({ ...base, model: 'nano2-lite', references: 4 }))).toMatchObject({
      parameter: 'reference_images',
    });
    const twoAndTwo = {
      ...base,
      model: 'nano2-lite',
      references: 2,
      characters: [
        { entityId: 'a', name: 'A' },
        { entityId: 'b', name: 'B' },
      ],
    };
    expect(first(judgeImageRequest(twoAndTwo))).toMatchObject({ parameter: 'reference_entities' });
    expect(first(judgeImageRequest({ ...base, characters: [{ entityId: 'e', name: ' ' }] }))).toMatchObject({
      parameter: 'reference_entities',
    });
    expect(first(judgeImageRequest({ ...base, instructions: 1 }))).toMatchObject({ code: 'flow-host-migrated' });
    expect(first(judgeImageRequest({ ...base, instructions: 1, uiMode: 'classic' }))).toMatchObject({
      code: 'bad-parameter',
    });
  });

  it('a violation becomes the same error on every surface: its class, exit code and parameter', () => {
    const [bad] = judgeVideoRequest(video({ mode: 'i2v' })).violations;
    const error = violationError(bad as NonNullable<typeof bad>);
    expect(error).toMatchObject({ code: 'bad-parameter', exitCode: 2, extensions: { parameter: 'initial_frame' } });
    expect(() => requireNoViolation(judgeVideoRequest(video({ characters: [{ entityId: 'e', name: 'A' }] })))).toThrow(
      expect.objectContaining({ code: 'flow-host-migrated', exitCode: 36 }),
    );
  });
});
