import { describe, expect, it } from 'vitest';
import type { GeneratedItem } from '../generate/types.js';
import { nameFromTiles, tileNames } from './pageFacts.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const item = (mediaId: string, displayName?: string): GeneratedItem => ({
  mediaId,
  workflowId: null,
  prompt: 'p',
  modelKey: '',
  url: 'https://flow-content.google/image/x',
  ...(displayName === undefined ? {} : { displayName }),
});

describe('page facts', () => {
  it('names only the tiles that show a name', () => {
    const names = tileNames({
      title: 'Trip',
      tiles: [
        { mediaId: A, token: 't1', name: 'A fox' },
        { mediaId: B, token: 't2', name: null },
      ],
    });
    expect([...names]).toEqual([[A, 'A fox']]);
  });

  it("keeps a name the reply gave and fills one only from the item's own tile", () => {
    const names = new Map([
      [A, 'From the tile'],
      [B, 'Other'],
    ]);
    const [kept, filled, none] = nameFromTiles(
      [item(A, 'From the reply'), item(B), item('33333333-3333-4333-8333-333333333333')],
      names,
    );
    expect(kept?.displayName).toBe('From the reply');
    expect(filled?.displayName).toBe('Other');
    expect(none?.displayName).toBeUndefined();
  });
});
