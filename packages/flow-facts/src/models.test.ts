import { describe, expect, it } from 'vitest';
import { IMAGE_ASPECT_ICONS, IMAGE_ASPECTS, VIDEO_ASPECT_ICONS, VIDEO_ASPECTS } from './aspects.js';
import {
  IMAGE_MODELS,
  VIDEO_MODELS,
  findImageModel,
  findVideoModel,
  imageModelSpellings,
  normaliseAlias,
  videoModelSpellings,
} from './models.js';
import { pickMenuCandidate } from './menu.js';

const tables = [
  ['image', IMAGE_MODELS],
  ['video', VIDEO_MODELS],
] as const;

describe('the model table', () => {
  it.each(tables)('%s: names are unique, and every spelling normalises to exactly one model', (_kind, models) => {
    const names = models.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    const owners = new Map<string, Set<string>>();
    for (const m of models) {
      for (const spelling of [m.name, ...m.aliases]) {
        const key = normaliseAlias(spelling);
        owners.set(key, (owners.get(key) ?? new Set()).add(m.name));
      }
    }
    const shared = [...owners].filter(([, who]) => who.size > 1);
    expect(shared).toEqual([]);
  });

  it('no spelling means an image model and a video model at once', () => {
    const image = new Set(imageModelSpellings().map(normaliseAlias));
    expect(
      videoModelSpellings()
        .map(normaliseAlias)
        .filter((s) => image.has(s)),
    ).toEqual([]);
  });

  it('every spelling resolves to its model, whatever the case and separators', () => {
    for (const m of IMAGE_MODELS)
      for (const a of [m.name, ...m.aliases])
        expect(findImageModel(` ${a.toUpperCase().replace(/_/g, '-')} `)?.name, a).toBe(m.name);
    for (const m of VIDEO_MODELS)
      for (const a of [m.name, ...m.aliases]) expect(findVideoModel(a.replace(/_/g, '.'))?.name, a).toBe(m.name);
    expect(findImageModel('nano3')).toBeUndefined();
    expect(findVideoModel('veo4')).toBeUndefined();
  });

  it('nano2 is Nano Banana 2.1 (BELUGA), with Nano Banana 2 (NARWHAL) as the fallback entry', () => {
    const nano2 = findImageModel('nano2');
    expect(nano2).toMatchObject({ name: 'nano2', label: 'Nano Banana 2.1', wireToken: 'BELUGA', default: true });
    expect(nano2?.menu.map((e) => [e.label, e.token])).toEqual([
      ['Nano Banana 2.1', 'BELUGA'],
      ['Nano Banana 2', 'NARWHAL'],
    ]);
    for (const alias of ['nano2.1', 'beluga', 'narwhal', 'Nano-Banana-2'])
      expect(findImageModel(alias)?.name, alias).toBe('nano2');
  });

  it('each model has exactly one default among the images, and the first menu entry is its label and token', () => {
    expect(IMAGE_MODELS.filter((m) => m.default).map((m) => m.name)).toEqual(['nano2']);
    for (const m of IMAGE_MODELS) expect([m.label, m.wireToken]).toEqual([m.menu[0].label, m.menu[0].token]);
    for (const m of VIDEO_MODELS) expect(m.label).toBe(m.menu[0].label);
  });

  it('every menu entry of one model is picked for itself and never for another model', () => {
    for (const models of [IMAGE_MODELS, VIDEO_MODELS]) {
      const menu = models.flatMap((m) => m.menu.map((e) => e.label));
      for (const m of models) {
        for (const entry of m.menu) {
          // A menu that offers only this entry of the model, and every other model's entries.
          const offered = menu.filter((label) => label === entry.label || !m.menu.some((e) => e.label === label));
          const pick = pickMenuCandidate(offered, m.menu);
          expect(pick.kind === 'one' ? offered[pick.index] : pick.kind, `${m.name} / ${entry.label}`).toBe(entry.label);
        }
      }
    }
  });

  it('video durations, end-frame limits, resolutions and key families agree', () => {
    for (const m of VIDEO_MODELS) {
      expect(Math.max(...m.durations), m.name).toBe(m.maxDuration);
      expect(m.maxDurationWithEndFrame, m.name).toBeLessThanOrEqual(m.maxDuration);
      expect(m.resolutions.length > 0, m.name).toBe(m.family === 'omni');
      if (m.keyFamily !== null) expect(m.keyFamily.startsWith(m.family === 'omni' ? 'omni' : 'veo'), m.name).toBe(true);
      expect(m.lowerPriority, m.name).toBe(m.name.endsWith('_lower_priority'));
    }
  });

  it('every aspect has its settings-pane ligature', () => {
    expect(Object.keys(IMAGE_ASPECT_ICONS).sort()).toEqual([...IMAGE_ASPECTS].sort());
    expect(Object.keys(VIDEO_ASPECT_ICONS).sort()).toEqual([...VIDEO_ASPECTS].sort());
  });
});
