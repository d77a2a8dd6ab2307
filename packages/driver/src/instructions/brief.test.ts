import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { type Brief, type BriefCard, applyBriefChange, diffBriefs } from './brief.js';

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

describe('diffBriefs', () => {
  const card = (over: Partial<BriefCard>): BriefCard => ({
    id: 'c1',
    title: 'Style',
    enabled: true,
    text: 'noir',
    image_media_ids: [],
    character_ids: [],
    ...over,
  });
  it('is empty when Flow shows what was asked (order, outer whitespace and reference order aside)', () => {
    const intended: Brief = {
      enabled: true,
      cards: [card({ image_media_ids: ['m1', 'm2'] }), card({ id: null, title: 'New', text: 'n ' })],
    };
    const live: Brief = {
      enabled: true,
      cards: [card({ id: 'c9', title: 'New', text: 'n' }), card({ image_media_ids: ['m2', 'm1'] })],
    };
    expect(diffBriefs(intended, live)).toEqual([]);
  });
  it('names every difference: switch, text, enabled, references, missing, extra, no id', () => {
    const intended: Brief = {
      enabled: false,
      cards: [card({}), card({ id: null, title: 'New' }), card({ id: 'c3', title: 'Gone' })],
    };
    const live: Brief = {
      enabled: true,
      cards: [
        card({ text: '', enabled: false, character_ids: ['e1'] }),
        card({ id: null, title: 'New', image_media_ids: ['m1'] }),
        card({ id: 'c4', title: 'Extra' }),
      ],
    };
    expect(diffBriefs(intended, live)).toEqual([
      'the brief is switched on, not off',
      'card "Style" has the text ""',
      'card "Style" is disabled',
      'card "Style" references the characters [e1]',
      'card "New" has no id',
      'card "New" references the images [m1]',
      'card "Gone" is missing',
      'an unexpected card "Extra" is there',
    ]);
  });
});
