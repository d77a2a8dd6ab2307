import { describe, expect, it } from 'vitest';
import { Scenario } from '../scenario.js';
import { SimState } from './simState.js';

const stateAt = (urlDelay: 'measured' | 'scaled'): SimState =>
  new SimState({ seed: 'url-gap', latency: 'fast', locale: 'en-US', urlDelay });

describe('pinUrlGap (a test and bench control: one URL gap for the clips compared side by side)', () => {
  it('draws one measured gap (2–8 s, flow-captures.md §4) and gives it to every clip until unpinned', () => {
    const state = stateAt('measured');
    const scenario = new Scenario(state);
    const pinned = scenario.pinUrlGap();
    expect(pinned).toBeGreaterThanOrEqual(2_000);
    expect(pinned).toBeLessThanOrEqual(8_000);
    expect(Array.from({ length: 5 }, () => state.urlGap())).toEqual(Array(5).fill(pinned));
    scenario.unpinUrlGap();
    const drawn = new Set(Array.from({ length: 20 }, () => state.urlGap()));
    expect(drawn.size).toBeGreaterThan(1);
  });

  it('draws again on every pin, and follows urlDelay as a clip would (scaled at fast: a second)', () => {
    const measured = new Scenario(stateAt('measured'));
    const pins = new Set(Array.from({ length: 10 }, () => measured.pinUrlGap()));
    expect(pins.size).toBeGreaterThan(1);
    const state = stateAt('scaled');
    expect(new Scenario(state).pinUrlGap()).toBe(1_000);
    expect(state.urlGap()).toBe(1_000);
  });
});
