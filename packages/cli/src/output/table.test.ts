import { describe, expect, it } from 'vitest';
import { renderListing } from './table.js';

describe('renderListing', () => {
  it('a table when there are rows; else the one line for an empty listing, or for a page past its end', () => {
    expect(renderListing(['A', 'B'], [['x', null]], 'No rows yet.')).toBe('A  B\nx  -');
    expect(renderListing(['A', 'B'], [], 'No rows yet.')).toBe('No rows yet.');
    expect(renderListing(['A', 'B'], [], 'No rows yet.', 20)).toBe('Nothing past offset 20.');
  });
});
