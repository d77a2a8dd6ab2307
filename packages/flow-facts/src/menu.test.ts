import { describe, expect, it } from 'vitest';
import { candidateShown, labelMatches, pickMenuCandidate, pickMenuEntry } from './menu.js';
import { findImageModel } from './models.js';

const video = [
  'Omni 1.1 Flash',
  'Veo 3.1 - Lite',
  'Veo 3.1 - Fast',
  'Veo 3.1 - Quality',
  'Veo 3.1 - Lite [Lower Priority]',
];
const image = ['🍌 Nano Banana 2', '🍌 Nano Banana 2.1', '🍌 Nano Banana 2 Lite', '🍌 Nano Banana Pro'];

describe('model menu matching', () => {
  it('picks Veo Lite and not its Lower Priority twin', () => {
    expect(pickMenuEntry(video, 'Veo 3.1 - Lite', ['[Lower Priority]'])).toEqual({ kind: 'one', index: 1 });
    expect(pickMenuEntry(video, 'Veo 3.1 - Lite [Lower Priority]')).toEqual({ kind: 'one', index: 4 });
  });

  it('tells Nano Banana 2 from 2.1, 2 Lite and Pro', () => {
    expect(pickMenuEntry(image, 'Nano Banana 2', ['Lite'])).toEqual({ kind: 'one', index: 0 });
    expect(pickMenuEntry(image, 'Nano Banana 2.1', ['Lite'])).toEqual({ kind: 'one', index: 1 });
    expect(pickMenuEntry(image, 'Nano Banana 2 Lite')).toEqual({ kind: 'one', index: 2 });
    expect(pickMenuEntry(image, 'Nano Banana Pro')).toEqual({ kind: 'one', index: 3 });
  });

  it('refuses none and several', () => {
    expect(pickMenuEntry(video, 'Omni 1.2 Flash')).toEqual({ kind: 'none' });
    expect(pickMenuEntry(['Veo 3.1 - Fast', 'Veo 3.1 - Fast (beta)'], 'Veo 3.1 - Fast')).toEqual({
      kind: 'many',
      indexes: [0, 1],
    });
  });

  it('needs a boundary before and after', () => {
    expect(labelMatches('XNano Banana Pro', 'Nano Banana Pro')).toBe(false);
    expect(labelMatches('Nano Banana Pro check', 'Nano Banana Pro')).toBe(true);
    expect(labelMatches('Nano Banana 20', 'Nano Banana 2')).toBe(false);
  });
});

describe('menu candidates (nano2: 2.1 first, then 2)', () => {
  const menu = findImageModel('nano2')?.menu ?? [];

  it('picks 2.1 (BELUGA) when it is offered, with or without 2 beside it', () => {
    for (const offered of [image, ['🍌 Nano Banana 2.1', '🍌 Nano Banana 2 Lite', '🍌 Nano Banana Pro']]) {
      const pick = pickMenuCandidate(offered, menu);
      expect(pick.kind === 'one' ? [offered[pick.index], pick.candidate.token] : pick).toEqual([
        '🍌 Nano Banana 2.1',
        'BELUGA',
      ]);
    }
  });

  it('falls back to 2 (NARWHAL) on the old menu, and refuses a menu with neither', () => {
    const old = ['🍌 Nano Banana 2', '🍌 Nano Banana 2 Lite', '🍌 Nano Banana Pro'];
    const pick = pickMenuCandidate(old, menu);
    expect(pick.kind === 'one' ? [old[pick.index], pick.candidate.token] : pick).toEqual([
      '🍌 Nano Banana 2',
      'NARWHAL',
    ]);
    expect(pickMenuCandidate(['🍌 Nano Banana 2 Lite', '🍌 Nano Banana Pro'], menu)).toEqual({ kind: 'none' });
  });

  it('refuses a candidate offered twice instead of trying the next', () => {
    expect(pickMenuCandidate(['Nano Banana 2.1', 'Nano Banana 2.1 (new)', 'Nano Banana 2'], menu)).toMatchObject({
      kind: 'many',
      indexes: [0, 1],
    });
  });

  it('tells which candidate the model button shows', () => {
    expect(candidateShown('🍌 Nano Banana 2.1 arrow_drop_down', menu)?.token).toBe('BELUGA');
    expect(candidateShown('🍌 Nano Banana 2', menu)?.token).toBe('NARWHAL');
    expect(candidateShown('🍌 Nano Banana 2 Lite', menu)).toBeUndefined();
  });
});
