import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { asbToken, parseSearchRows, toCharacters } from './characterRows.js';
import { selectCharacter } from './selectCharacter.js';

const reply = [
  [
    ['m-1', 'cat.png', 'UPLOAD', '/asb/tokA', [512, 512], 'media'],
    ['e-1', 'Mira', 'CHARACTER', '/asb/tokB', [512, 512], 'entity'],
    ['e-2', 'Juno', 'CHARACTER', '/asb/tokC', [512, 512], 'entity'],
    ['e-3', 'Mira', 'CHARACTER', '/asb/tokD', [512, 512], 'entity'],
  ],
];

describe('character rows', () => {
  it('keeps entity rows only, once each, mapping thumbnails through the grid', () => {
    const rows = parseSearchRows(reply);
    const list = toCharacters([...rows, ...rows], 'p-1', new Map([['tokC', 'media-c']]));
    expect(list.map((c) => c.entity_id)).toEqual(['e-1', 'e-2', 'e-3']);
    expect(list[1]).toEqual({
      entity_id: 'e-2',
      display_name: 'Juno',
      project_id: 'p-1',
      workflow_ids: [],
      voice: null,
      personality: null,
      thumbnail_media_id: 'media-c',
    });
    expect(list[0]?.thumbnail_media_id).toBeNull();
  });
  it('refuses a reply of another shape with 7', () => {
    for (const bad of [null, {}, [null], [[['only-id']]], [[[1, 'x']]]]) {
      expect(
        exitCodeOf(
          (() => {
            try {
              parseSearchRows(bad);
            } catch (e) {
              return e;
            }
            return null;
          })(),
        ),
      ).toBe(7);
    }
  });
  it('reads /asb tokens', () => {
    expect(asbToken('https://flow.google.com/asb/abc?x=1')).toBe('abc');
    expect(asbToken('/image/x')).toBeNull();
    expect(asbToken(null)).toBeNull();
  });
});

describe('selectCharacter', () => {
  const list = toCharacters(parseSearchRows(reply), 'p', new Map());
  it('finds by id or by a unique exact name', () => {
    expect(selectCharacter(list, { id: 'e-3' }).entity_id).toBe('e-3');
    expect(selectCharacter(list, { name: 'Juno' }).entity_id).toBe('e-2');
  });
  it('refuses an ambiguous name with the candidates (exit 11)', () => {
    let caught: unknown = null;
    try {
      selectCharacter(list, { name: 'Mira' });
    } catch (e) {
      caught = e;
    }
    expect(exitCodeOf(caught)).toBe(11);
    expect((caught as { extensions: { candidates: unknown[] } }).extensions.candidates).toHaveLength(2);
  });
  it('refuses unknown ids/names (32) and zero or two selectors (2)', () => {
    expect(() => selectCharacter(list, { id: 'nope' })).toThrow(/no character/);
    expect(() => selectCharacter(list, { name: 'juno' })).toThrow(/no character named/);
    expect(() => selectCharacter(list, {} as never)).toThrow(/exactly one/);
    expect(() => selectCharacter(list, { id: 'e-1', name: 'Mira' } as never)).toThrow(/exactly one/);
  });
});
