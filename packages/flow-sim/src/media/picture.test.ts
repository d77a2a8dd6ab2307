import { describe, expect, it } from 'vitest';
import { panAt, panFor, panSteps } from './pan.js';
import { coverScale, paintCover, toYuv420 } from './picture.js';
import type { Raster } from './picture.js';

function solid(width: number, height: number, [r, g, b]: [number, number, number]): Raster {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i += 1) rgb.set([r, g, b], i * 3);
  return { width, height, rgb };
}

function pixel(r: Raster, x: number, y: number): number[] {
  const i = (y * r.width + x) * 3;
  return [...r.rgb.subarray(i, i + 3)];
}

describe('pictures for the clips', () => {
  it('BT.601 limited range: black, white, primaries', () => {
    const cases: [[number, number, number], [number, number, number]][] = [
      [
        [0, 0, 0],
        [16, 128, 128],
      ],
      [
        [255, 255, 255],
        [235, 128, 128],
      ],
      [
        [255, 0, 0],
        [82, 90, 240],
      ],
      [
        [0, 255, 0],
        [144, 54, 34],
      ],
      [
        [0, 0, 255],
        [41, 240, 110],
      ],
    ];
    for (const [rgb, [y, cb, cr]] of cases) {
      const yuv = toYuv420(solid(16, 16, rgb));
      expect([yuv.y[0], yuv.cb[0], yuv.cr[0]]).toEqual([y, cb, cr]);
    }
  });

  it('pads to whole macroblocks by repeating the last row and column, chroma the mean of 2×2', () => {
    const r = solid(20, 18, [0, 0, 0]);
    for (let y = 0; y < 18; y += 1) r.rgb.set([255, 255, 255], (y * 20 + 19) * 3); // last column white
    for (let x = 0; x < 20; x += 1) r.rgb.set([255, 0, 0], (17 * 20 + x) * 3); // last row red
    const yuv = toYuv420(r);
    expect([yuv.width, yuv.height, yuv.y.length, yuv.cb.length]).toEqual([32, 32, 1024, 256]);
    expect(yuv.y[5 * 32 + 31]).toBe(235); // padding right: the white column
    expect(yuv.y[31 * 32 + 5]).toBe(82); // padding below: the red row
    expect(yuv.y[0]).toBe(16);
    // chroma row 8 covers luma rows 16 (black) and 17 (red): the mean; below it repeats
    expect(yuv.cr[8 * 16 + 2]).toBe(184);
    expect(yuv.cr[15 * 16 + 2]).toBe(184);
  });

  it('covers: keeps the aspect, centres, cuts the overflow; box filter down, nearest up', () => {
    // 4×2 source: left half black, right half white; scaled to 2×2 it keeps the middle 2×2 … of a 4:2 → 1:1 cover
    const src = solid(4, 2, [0, 0, 0]);
    for (const [x, y] of [
      [2, 0],
      [3, 0],
      [2, 1],
      [3, 1],
    ] as const)
      src.rgb.set([255, 255, 255], (y * 4 + x) * 3);
    const square = coverScale(src, 2, 2);
    expect([pixel(square, 0, 0), pixel(square, 1, 0)]).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
    const half = coverScale(src, 2, 1);
    expect([pixel(half, 0, 0), pixel(half, 1, 0)]).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
    const grey = coverScale(src, 1, 1); // a 2:1 window's 1 pixel covers the middle two columns
    expect(pixel(grey, 0, 0)).toEqual([128, 128, 128]);
    const big = coverScale(src, 8, 4);
    expect([pixel(big, 3, 2), pixel(big, 4, 2)]).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
    expect(coverScale(src, 4, 2)).toBe(src);
  });

  it('paints a painter at its own size exactly and covers other shapes', () => {
    const paint = (x: number, y: number, w: number, h: number): [number, number, number] => [
      Math.round((255 * x) / w),
      Math.round((255 * y) / h),
      0,
    ];
    const same = paintCover(paint, 10, 10, 10, 10);
    expect(pixel(same, 3, 7)).toEqual(paint(3, 7, 10, 10));
    const wide = paintCover(paint, 10, 10, 20, 10); // 2:1 window from a square: the middle rows
    expect(pixel(wide, 0, 0)[1]).toBeGreaterThan(50);
    expect(pixel(wide, 19, 9)[1]).toBeLessThan(205);
  });

  it('pans: direction words, else a hash direction; an eighth of the picture; whole even steps ending at the pan', () => {
    expect(panFor('a slow pan left over the city', 640, 360)).toEqual({ x: -80, y: 0 });
    expect(panFor('camera moves right', 1280, 720)).toEqual({ x: 160, y: 0 });
    expect(panFor('tilt up to the sky', 640, 360)).toEqual({ x: 0, y: -46 });
    expect(panFor('leaves falling down', 640, 360)).toEqual({ x: 0, y: 46 });
    expect(panFor('drift right and up', 1920, 1080)).toEqual({ x: 240, y: -136 });
    const hashed = panFor('waves at night', 640, 360);
    expect(hashed).toEqual(panFor('waves at night', 640, 360));
    expect(Math.abs(hashed.x) + Math.abs(hashed.y)).toBeGreaterThan(0);
    const directions = new Set(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map((p) => JSON.stringify(panFor(p, 640, 360))),
    );
    expect(directions.size).toBeGreaterThan(3);
    const steps = panSteps({ x: 80, y: -46 }, 192);
    expect(steps).toHaveLength(191);
    expect(steps.reduce((a, s) => ({ x: a.x + s.x, y: a.y + s.y }), { x: 0, y: 0 })).toEqual({ x: 80, y: -46 });
    for (const s of steps)
      expect([Math.abs(s.x % 2), Math.abs(s.y % 2), Math.abs(s.x) <= 2, Math.abs(s.y) <= 2]).toEqual([
        0,
        0,
        true,
        true,
      ]);
    expect(panAt({ x: 80, y: 0 }, 192, 0)).toEqual({ x: 0, y: 0 });
    expect(panAt({ x: 80, y: 0 }, 192, 191)).toEqual({ x: 80, y: 0 });
    expect(panAt({ x: 80, y: 0 }, 192, 96).x).toBe(40);
    expect(panSteps({ x: 80, y: 0 }, 1)).toEqual([]);
  });
});
