import { describe, expect, it } from 'vitest';
import { latencyScale, TIMINGS, urlGapMs } from './latency.js';

describe('urlGapMs (flow-captures.md §4: URLs 2–8 s after status 3)', () => {
  const poll = (scale: number): number => Math.round(TIMINGS.pollInterval * scale);

  it("'measured' keeps the measured draw at every scale", () => {
    for (const measured of [2_000, 5_500, 8_000]) {
      expect(urlGapMs(measured, 'measured', latencyScale('fast'), poll(0.02))).toBe(measured);
      expect(urlGapMs(measured, 'measured', 1, poll(1))).toBe(measured);
    }
  });

  it("'scaled' is the measured draw at realistic latency", () => {
    expect(urlGapMs(2_000, 'scaled', 1, poll(1))).toBe(2_000);
    expect(urlGapMs(8_000, 'scaled', 1, poll(1))).toBe(8_000);
  });

  it("'scaled' at fast latency lasts a second (ten page polls), more than the scaled draw", () => {
    const fast = latencyScale('fast');
    expect(urlGapMs(2_000, 'scaled', fast, poll(fast))).toBe(1_000);
    expect(urlGapMs(8_000, 'scaled', fast, poll(fast))).toBe(1_000);
    expect(1_000).toBeGreaterThan(8_000 * fast);
    expect(1_000).toBeGreaterThanOrEqual(3 * poll(fast));
  });

  it("'scaled' in between follows the scale once it passes three polls", () => {
    expect(urlGapMs(8_000, 'scaled', 0.5, poll(0.5))).toBe(7_500);
    expect(urlGapMs(4_000, 'scaled', 0.5, poll(0.5))).toBe(4_000);
  });
});
