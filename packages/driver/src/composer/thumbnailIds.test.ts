import { describe, expect, it } from 'vitest';
import { searchReplyPairs } from './thumbnailIds.js';

const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('searchReplyPairs (issue 45: a kept page reads its own search reply)', () => {
  it('pairs the id and the /asb/ thumbnail each row holds, wherever the rows sit', () => {
    const rows = [
      [A, 'Twin kites at dusk', 'IMAGE', '/asb/CAEaaa', [1376, 768], 'media'],
      [B, 'Twin kites at dusk', 'IMAGE', 'https://flow.google.com/asb/CAEbbb?x=1', [1376, 768], 'media'],
    ];
    expect(searchReplyPairs([rows])).toEqual([
      ['CAEaaa', A],
      ['CAEbbb', B],
    ]);
    // Wrapped in another list or an object (the reply layout was never captured): found all the same.
    expect(searchReplyPairs([null, [rows], 1])).toEqual(searchReplyPairs([rows]));
    expect(searchReplyPairs({ results: [rows] })).toEqual(searchReplyPairs([rows]));
  });

  it('says nothing for rows that do not pair exactly one id with one thumbnail', () => {
    expect(searchReplyPairs([[[A, 'no thumbnail', 'IMAGE', null, [1, 1], 'media']]])).toEqual([]);
    // Thumbnails beside the rows (variant searchThumbs 'parallel'): no row pairs them.
    expect(searchReplyPairs([[[A, 'x', 'IMAGE', null]], ['/asb/CAEaaa']])).toEqual([]);
    expect(searchReplyPairs([[[A, B, '/asb/CAEaaa']]])).toEqual([]);
    expect(searchReplyPairs([[['not-a-uuid', 'x', '/asb/CAEaaa']]])).toEqual([]);
    expect(searchReplyPairs(null)).toEqual([]);
  });
});
