import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_SILENCE_MS } from '../runtime/progressPhases.js';
import { HEARTBEAT_MS, RunClock } from './clock.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function clockHeard(spoken: number[]): { clock: RunClock; heard: number[] } {
  const heard: number[] = [];
  const clock = new RunClock({
    signal: new AbortController().signal,
    timeoutSeconds: 3600,
    cancelRequested: () => false,
    onSilence: () => {
      heard.push(Date.now());
      clock.spoke();
    },
  });
  for (const at of spoken) setTimeout(() => clock.spoke(), at);
  return { clock, heard };
}

describe('RunClock heartbeat', () => {
  it('never lets a job be silent longer than MAX_SILENCE_MS, whenever it last spoke', () => {
    const start = Date.now();
    // Words at uneven moments, then a long silence.
    const spoken = [300, 1_700, 2_950, 9_100, 9_999];
    const { clock, heard } = clockHeard(spoken);
    vi.advanceTimersByTime(40_000);
    clock.stop();
    const events = [start, ...spoken.map((at) => start + at), ...heard].sort((a, b) => a - b);
    const gaps = events.slice(1).map((at, i) => at - (events[i] as number));
    expect(heard.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MAX_SILENCE_MS);
    // A heartbeat answers silence only: none comes sooner than HEARTBEAT_MS after the last word.
    for (const beat of heard) {
      const before = events.filter((at) => at < beat).at(-1) as number;
      expect(beat - before).toBeGreaterThanOrEqual(HEARTBEAT_MS);
    }
  });

  it('says nothing once stopped', () => {
    const { clock, heard } = clockHeard([]);
    clock.stop();
    vi.advanceTimersByTime(60_000);
    expect(heard).toEqual([]);
  });
});
