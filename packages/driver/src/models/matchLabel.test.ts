import { describe, expect, it } from 'vitest';
import { labelMatches, pickMenuEntry } from './matchLabel.js';

const video = ['Omni 1.1 Flash', 'Veo 3.1 - Lite', 'Veo 3.1 - Fast', 'Veo 3.1 - Quality', 'Veo 3.1 - Lite [Lower Priority]'];
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
    expect(pickMenuEntry(['Veo 3.1 - Fast', 'Veo 3.1 - Fast (beta)'], 'Veo 3.1 - Fast')).toEqual({ kind: 'many', indexes: [0, 1] });
  });

  it('needs a boundary before and after', () => {
    expect(labelMatches('XNano Banana Pro', 'Nano Banana Pro')).toBe(false);
    expect(labelMatches('Nano Banana Pro check', 'Nano Banana Pro')).toBe(true);
    expect(labelMatches('Nano Banana 20', 'Nano Banana 2')).toBe(false);
  });
});
