import { describe, expect, it } from 'vitest';
import { namedMedia, unambiguous } from './projectNames.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

describe('project names', () => {
  it("a tile's own name first, else the picker option's with the tile's thumbnail, else none", () => {
    const media = namedMedia(
      {
        title: 'Trip',
        tiles: [
          { mediaId: A, token: 'ta', name: 'From the tile' },
          { mediaId: B, token: 'tb', name: null },
          { mediaId: C, token: null, name: null },
          { mediaId: A, token: 'ta', name: 'A second tile of A' },
        ],
      },
      new Map([
        ['ta', 'From the picker'],
        ['tb', 'Named by the picker'],
      ]),
    );
    expect(media).toEqual([
      { media_id: A, name: 'From the tile', source: 'tile' },
      { media_id: B, name: 'Named by the picker', source: 'picker' },
      { media_id: C, name: null, source: null },
    ]);
  });

  it('a thumbnail two options name differently names nothing (a character pictured by a media of the grid)', () => {
    const names = unambiguous([
      ['t1', 'A fox'],
      ['t1', 'A fox'],
      ['t2', 'A hare'],
      ['t2', 'Mira'],
    ]);
    expect([...names]).toEqual([['t1', 'A fox']]);
  });
});
