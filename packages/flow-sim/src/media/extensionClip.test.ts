import { describe, expect, it } from 'vitest';
import { continueClip, extensionStartFrame, panBeyond } from './extensionClip.js';
import type { Mp4Spec } from './mp4.js';
import { panAt } from './pan.js';
import type { Raster } from './picture.js';

function picture(width: number, height: number): Raster {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 1) rgb[i] = (i * 7) % 251;
  return { width, height, rgb };
}

const source: Mp4Spec & { picture: Raster } = {
  width: 64,
  height: 36,
  seconds: 8,
  key: 'k',
  pan: { x: 8, y: -4 },
  picture: picture(64, 36),
};

describe('an extension continues its source (flow-captures.md §10)', () => {
  it('panBeyond is panAt inside the clip and keeps the pace past its end', () => {
    for (const index of [0, 1, 95, 191])
      expect(panBeyond(source.pan!, 192, index)).toEqual(panAt(source.pan!, 192, index));
    expect(panBeyond({ x: 191 * 2, y: 0 }, 192, 200)).toEqual({ x: 400, y: 0 });
  });

  it('the overlap decides the first frame: 1 s → the first frame of the last second, 0 → the frame after the last', () => {
    expect(extensionStartFrame(192, 1)).toBe(168);
    expect(extensionStartFrame(192, 0.5)).toBe(180);
    expect(extensionStartFrame(192, 0)).toBe(192);
  });

  it("the extension's camera moves at its source's pace: frame i of the extension is frame from+i of the source (±2 px)", () => {
    const from = 168;
    const ext = continueClip(source, from, 7);
    const frames = 7 * 24;
    for (const i of [0, 1, 23, 100, frames - 1]) {
      const start = panBeyond(source.pan!, 192, from);
      const moved = panAt(ext.pan, frames, i);
      const want = panBeyond(source.pan!, 192, from + i);
      expect(Math.abs(start.x + moved.x - want.x)).toBeLessThanOrEqual(2);
      expect(Math.abs(start.y + moved.y - want.y)).toBeLessThanOrEqual(2);
    }
    expect(ext.picture.width).toBe(64);
  });
});
