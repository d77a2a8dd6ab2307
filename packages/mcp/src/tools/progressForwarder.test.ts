import { describe, expect, it } from 'vitest';
import { progressMapper } from './progressForwarder.js';

describe('progressMapper', () => {
  it('yields strictly increasing progress: a repeat of the phase moves a thousandth on, an earlier phase is dropped', () => {
    const map = progressMapper();
    const values = [
      map({ phase: 'queued' }),
      map({ phase: 'generating', progress: 10, total: 100 }),
      map({ phase: 'generating', progress: 10, total: 100 }),
      map({ phase: 'generating', progress: 60, total: 100 }),
      map({ phase: 'queued' }),
      map({ phase: 'done' }),
    ];
    expect(values.map((v) => v?.progress)).toEqual([0, 7.1, 7.101, 7.6, undefined, 10]);
    expect(values[5]).toMatchObject({ total: 10, message: 'done' });
  });
});
