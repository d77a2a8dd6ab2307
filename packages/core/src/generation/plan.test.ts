import { exitCodeOf, toProblem } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { planImage, planVideo } from './plan.js';
import { generateImageInput, generateVideoInput } from './schemas.js';

const image = (input: Record<string, unknown>) => planImage(generateImageInput.parse({ prompt: 'a cat', ...input }));
const video = (input: Record<string, unknown>) => planVideo(generateVideoInput.parse({ prompt: 'a cat', ...input }));

function refusal(fn: () => unknown): { exit: number; status: number | undefined; detail: string; parameter: unknown } {
  try {
    fn();
  } catch (error) {
    const problem = toProblem(error);
    return { exit: exitCodeOf(error), status: problem.status, detail: problem.detail, parameter: problem['parameter'] };
  }
  throw new Error('expected a refusal');
}

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('planImage', () => {
  it('defaults to nano2, 1:1, one image, t2i', () => {
    expect(image({})).toMatchObject({ mode: 't2i', aspect: '1:1', count: 1, model: 'nano2' });
  });

  it('accepts aliases and turns any reference into i2i', () => {
    const plan = image({ model: 'Nano-Banana-2', reference_images: ['/tmp/a.png', UUID] });
    expect(plan.model).toBe('nano2');
    expect(plan.mode).toBe('i2i');
    expect(plan.references).toEqual([
      { kind: 'path', path: '/tmp/a.png' },
      { kind: 'media', mediaId: UUID },
    ]);
  });

  it.each([
    [{ model: 'dall-e' }, 2, 'model'],
    [{ instructions: ['be bold'], ui_mode: 'classic' }, 2, 'ui_mode'],
    [{ instructions: ['be bold'] }, 36, 'instructions'],
    [{ ui_mode: 'AGENTIC' }, 36, 'ui_mode'],
    [{ model: 'image4' }, 36, 'model'],
    [{ model: 'nano2-lite', reference_images: ['a', 'b', 'c', 'd'] }, 2, 'reference_images'],
    [{ reference_entities: ['ent-1'] }, 36, 'reference_entity_names'],
    [{ reference_entity_names: ['Ann'] }, 2, 'reference_entity_names'],
    [
      {
        model: 'nano2-lite',
        reference_images: ['a', 'b'],
        reference_entities: ['e1', 'e2'],
        reference_entity_names: ['Ann', 'Bo'],
      },
      2,
      'reference_entities',
    ],
  ])('refuses %j before any browser work (exit %i)', (input, exit, parameter) => {
    const r = refusal(() => image(input));
    expect(r.exit).toBe(exit);
    expect(r.parameter).toBe(parameter);
  });

  it('keeps saved characters paired with their names (a character alone stays t2i)', () => {
    const plan = image({ reference_entities: ['ent-1', 'ent-2'], reference_entity_names: ['Ann', 'Bo'] });
    expect(plan.characters).toEqual([
      { entityId: 'ent-1', name: 'Ann' },
      { entityId: 'ent-2', name: 'Bo' },
    ]);
    expect(plan.mode).toBe('t2i');
    expect(image({ reference_images: ['/a.png'], reference_entities: ['e'], reference_entity_names: ['E'] }).mode).toBe(
      'i2i',
    );
  });

  it('rejects bad shapes through the schema', () => {
    expect(generateImageInput.safeParse({ prompt: '' }).success).toBe(false);
    expect(generateImageInput.safeParse({ prompt: 'x', count: 5 }).success).toBe(false);
    expect(generateImageInput.safeParse({ prompt: 'x', aspect: '2:1' }).success).toBe(false);
    expect(generateImageInput.safeParse({ prompt: 'x', project: '../etc' }).success).toBe(false);
    expect(generateImageInput.parse({ prompt: 'x', ui_mode: 'Classic' }).ui_mode).toBe('classic');
  });
});

describe('planVideo', () => {
  it("defaults to t2v 9:16 with Flow's model and duration", () => {
    expect(video({})).toMatchObject({ mode: 't2v', aspect: '9:16', model: undefined, duration: undefined });
  });

  it('gives i2v the veo_lite default and keeps frames', () => {
    const plan = video({ mode: 'i2v', initial_frame: UUID, end_frame: '/tmp/end.png' });
    expect(plan.model).toBe('veo_3_1_lite');
    expect(plan.startFrame).toEqual({ kind: 'media', mediaId: UUID });
    expect(plan.endFrame).toEqual({ kind: 'path', path: '/tmp/end.png' });
  });

  it('pins r2v on Veo or no model to 8 s, and lets Omni choose', () => {
    expect(video({ mode: 'r2v', reference_images: ['/a.png'] }).duration).toBe(8);
    expect(video({ mode: 'r2v', reference_images: ['/a.png'], model: 'veo_fast' }).duration).toBe(8);
    expect(video({ mode: 'r2v', reference_images: ['/a.png'], model: 'omni_flash', duration: 4 }).duration).toBe(4);
    expect(video({ mode: 'r2v', reference_images: ['/a.png'], model: 'omni_1_2_flash', duration: 13 }).duration).toBe(
      13,
    );
  });

  it.each([
    [{ mode: 'i2v' }, 2, 'initial_frame'],
    [{ mode: 'r2v' }, 2, 'reference_images'],
    [{ mode: 't2v', initial_frame: '/a.png' }, 2, 'initial_frame'],
    [{ mode: 'i2v', initial_frame: '/a.png', reference_images: ['/b.png'] }, 2, 'reference_images'],
    [
      { mode: 'i2v', end_frame: '/a.png', initial_frame: '/s.png', model: 'omni_1_2_flash', duration: 12 },
      2,
      'duration',
    ],
    [{ mode: 'i2v', initial_frame: '/a.png', end_frame: UUID }, 36, 'end_frame'],
    [{ ui_mode: 'agentic' }, 2, 'ui_mode'],
    [{ model: 'sora' }, 2, 'model'],
    [{ model: 'veo_lite', duration: 10 }, 2, 'duration'],
    [{ duration: 5 }, 2, 'duration'],
    [{ mode: 'i2v', initial_frame: '/a.png', duration: 10 }, 2, 'duration'],
    [{ model: 'omni_flash', duration: 3 }, 2, 'duration'],
    [{ model: 'veo_fast', resolution: '720p' }, 2, 'resolution'],
    [{ resolution: '360p' }, 2, 'resolution'],
    [{ mode: 'r2v', reference_images: ['/a.png'], duration: 6 }, 2, 'duration'],
    [{ mode: 'r2v', reference_images: ['/a.png'], model: 'veo_quality' }, 17, 'model'],
    [{ mode: 'r2v', reference_images: ['1', '2', '3', '4'], model: 'veo_lite' }, 2, 'reference_images'],
    [{ mode: 't2v', reference_entities: ['e1'], reference_entity_names: ['Ann'] }, 36, 'reference_entities'],
    [{ mode: 'r2v', reference_entities: ['e1'] }, 36, 'reference_entity_names'],
    [
      {
        mode: 'r2v',
        reference_images: ['1', '2', '3'],
        reference_entities: ['e1'],
        reference_entity_names: ['Ann'],
        model: 'veo_lite',
      },
      2,
      'reference_entities',
    ],
    [
      {
        mode: 'r2v',
        reference_images: ['1', '2'],
        reference_entities: ['e1', 'e2'],
        reference_entity_names: ['Ann', 'Bo'],
      },
      2,
      'reference_entities',
    ],
    [{ mode: 'r2v', reference_entities: ['e1'], reference_entity_names: ['Ann'], model: 'veo_quality' }, 17, 'model'],
  ])('refuses %j before any browser work (exit %i)', (input, exit, parameter) => {
    const r = refusal(() => video(input));
    expect(r.exit).toBe(exit);
    expect(r.parameter).toBe(parameter);
  });

  it('accepts r2v from saved characters alone, up to the cap with references', () => {
    const plan = video({
      mode: 'r2v',
      reference_entities: ['e1'],
      reference_entity_names: ['Captain Ro'],
      model: 'veo_lite',
    });
    expect(plan).toMatchObject({
      mode: 'r2v',
      duration: 8,
      references: [],
      characters: [{ entityId: 'e1', name: 'Captain Ro' }],
    });
    expect(
      video({
        mode: 'r2v',
        reference_images: ['1', '2'],
        reference_entities: ['e1'],
        reference_entity_names: ['Ann'],
        model: 'veo_lite',
      }).characters,
    ).toHaveLength(1);
  });

  it('accepts every omni_1_2_flash duration 3–15 and Veo 4/6/8', () => {
    for (let d = 3; d <= 15; d += 1) expect(video({ model: 'omni-1.2-flash', duration: d }).duration).toBe(d);
    for (const d of [4, 6, 8]) expect(video({ model: 'veo_quality', duration: d }).duration).toBe(d);
  });
});
