import { describe, expect, it } from 'vitest';
import { type ProjectBrief, migrateBrief, seedTitle } from './brief.js';
import { SeededRandom } from './random.js';

describe('the brief state', () => {
  it('turns a saved project’s instruction strings into enabled cards with stable ids, once', () => {
    const random = new SeededRandom('brief');
    const saved: { brief?: ProjectBrief; instructions?: string[] } = { instructions: ['Keep it noir.', 'Dusk.'] };
    const brief = migrateBrief(random, saved);
    expect(brief.enabled).toBe(true);
    expect(brief.cards.map((c) => [c.title, c.text, c.enabled])).toEqual([
      ['Instruction 1', 'Keep it noir.', true],
      ['Instruction 2', 'Dusk.', true],
    ]);
    expect(brief.cards.every((c) => /^c_[0-9a-f]{12}$/.test(c.id))).toBe(true);
    expect(saved).not.toHaveProperty('instructions');
    expect(migrateBrief(random, saved)).toBe(brief);
  });

  it('titles a seeded text with the first free "Instruction N"', () => {
    const brief: ProjectBrief = {
      enabled: true,
      cards: [{ id: 'c_1', title: 'Instruction 2', text: 'x', enabled: true, imageMediaIds: [], characterIds: [] }],
    };
    expect(seedTitle(brief)).toBe('Instruction 3');
    expect(seedTitle({ enabled: true, cards: [] })).toBe('Instruction 1');
  });
});
