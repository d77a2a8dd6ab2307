import { describe, expect, it } from 'vitest';
import { cutPoint } from './cutPoint.js';

const frame = 1 / 24;
/** `n` frames at 24 fps shown in decode order (no B-frames). */
const straight = (n: number) => Array.from({ length: n }, (_, i) => ({ timestamp: i * frame, duration: frame }));

describe('cutPoint: where a clip can end without re-encoding', () => {
  it('keeps everything when nothing is trimmed', () => {
    expect(cutPoint(straight(192), 0)).toEqual({ keep: 192, end: expect.closeTo(8, 6) as unknown as number });
  });

  it('without B-frames trims exactly: 1 s of an 8 s clip at 24 fps leaves 168 frames and 7 s', () => {
    const cut = cutPoint(straight(192), 1);
    expect(cut.keep).toBe(168);
    expect(cut.end).toBeCloseTo(7, 6);
    expect(cutPoint(straight(192), 0.5).keep).toBe(180);
  });

  it('with B-frames the cut falls on a clean boundary: no kept frame loses a reference, no dropped frame shows before a kept one', () => {
    // Decode order I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 (display index × frame).
    const order = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8];
    const packets = order.map((i) => ({ timestamp: i * frame, duration: frame }));
    // Trimming 2 frames (end 10 → 8): the prefix [I0 P3 B1 B2 P6 B4 B5] shows frames 0–6 and ends at 7.
    const cut = cutPoint(packets, 2 * frame);
    expect(cut.keep).toBe(7);
    expect(cut.end).toBeCloseTo(7 * frame, 6);
    // A cut inside a reordered group is never taken: trimming 5 frames leaves [I0 P3 B1 B2] (ends at 4).
    expect(cutPoint(packets, 5 * frame)).toMatchObject({ keep: 4 });
  });

  it('a trim as long as the clip keeps nothing', () => {
    expect(cutPoint(straight(24), 1).keep).toBe(0);
  });
});
