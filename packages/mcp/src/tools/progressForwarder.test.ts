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

  it('a run is on one scale, steps done out of its steps: never back, never done before its end', () => {
    const map = progressMapper();
    const step = (index: number) => ({ index, total: 3 });
    const values = [
      map({ phase: 'queued', step: step(0) }),
      map({ phase: 'generating', step: step(0) }),
      map({ phase: 'recording', step: step(0) }),
      map({ phase: 'starting-browser', step: step(1) }),
      map({ phase: 'generating', step: step(1) }),
      map({ phase: 'generating', step: step(1) }),
      map({ phase: 'recording', step: step(2) }),
      map({ phase: 'done', step: step(3) }),
    ].map((v) => v?.progress);
    expect(values.every((v) => v !== undefined)).toBe(true);
    const numbers = values as number[];
    for (let i = 1; i < numbers.length; i += 1) expect(numbers[i]).toBeGreaterThan(numbers[i - 1] as number);
    expect(numbers.slice(0, -1).every((v) => v < 3)).toBe(true);
    expect(numbers.at(-1)).toBe(3);
    expect(map({ phase: 'done', step: step(3) })).toBeUndefined();
  });
});
