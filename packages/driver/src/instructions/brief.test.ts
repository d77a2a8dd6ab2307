import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { type Brief, applyBriefChange } from './brief.js';

const live: Brief = {
  enabled: true,
  cards: [
    { id: 'c1', title: 'Style', enabled: true, text: 'noir', image_media_ids: [], character_ids: [] },
    { id: 'c2', title: 'Cast', enabled: false, text: 'Mira', image_media_ids: ['m1'], character_ids: ['e1'] },
  ],
};

const code = (f: () => unknown): number => {
  try {
    f();
  } catch (e) {
    return exitCodeOf(e);
  }
  return 0;
};

describe('applyBriefChange', () => {
  it('adds a card and keeps every live id', () => {
    const next = applyBriefChange(live, { op: 'add', card: { title: ' Light ', text: 'golden hour' } });
    expect(next.cards.map((c) => c.id)).toEqual(['c1', 'c2', null]);
    expect(next.cards[2]).toEqual({
      id: null,
      title: 'Light',
      enabled: true,
      text: 'golden hour',
      image_media_ids: [],
      character_ids: [],
    });
    expect(code(() => applyBriefChange(live, { op: 'add', card: { title: 'style', text: 'x' } }))).toBe(11);
  });
  it('enables, disables and removes by id or case-insensitive title', () => {
    expect(
      applyBriefChange(live, { op: 'set_enabled', select: { title: 'cast' }, enabled: true }).cards[1]?.enabled,
    ).toBe(true);
    expect(applyBriefChange(live, { op: 'set_enabled', select: { id: 'c1' }, enabled: false }).cards[0]?.enabled).toBe(
      false,
    );
    expect(applyBriefChange(live, { op: 'remove', select: { id: 'c1' } }).cards.map((c) => c.id)).toEqual(['c2']);
    expect(code(() => applyBriefChange(live, { op: 'remove', select: { title: 'nope' } }))).toBe(32);
  });
  it('flips the master switch and leaves the cards alone', () => {
    const next = applyBriefChange(live, { op: 'toggle_mode', enabled: false });
    expect(next).toEqual({ enabled: false, cards: live.cards });
  });
  it('apply replaces everything, keeping the ids of cards whose titles survive', () => {
    const next = applyBriefChange(live, {
      op: 'apply',
      cards: [
        { title: 'CAST', text: 'Juno', enabled: true },
        { title: 'New', text: 'n' },
      ],
    });
    expect(next.cards.map((c) => [c.id, c.title, c.text])).toEqual([
      ['c2', 'CAST', 'Juno'],
      [null, 'New', 'n'],
    ]);
    expect(
      code(() =>
        applyBriefChange(live, {
          op: 'apply',
          cards: [
            { title: 'a', text: '' },
            { title: 'A', text: '' },
          ],
        }),
      ),
    ).toBe(2);
  });
  it('refuses an ambiguous title with 11', () => {
    const twins: Brief = { enabled: true, cards: [live.cards[0]!, { ...live.cards[0]!, id: 'c9' }] };
    expect(code(() => applyBriefChange(twins, { op: 'remove', select: { title: 'Style' } }))).toBe(11);
  });
});
