import { hash32 } from '../state/random.js';

export type Rgb = [number, number, number];

/**
 * A deterministic picture for a media id: a two-colour diagonal gradient with a disc,
 * so different ids give visibly different images and the same id always the same one.
 */
export function painterFor(key: string): (x: number, y: number, w: number, h: number) => Rgb {
  const h = hash32(key);
  const a: Rgb = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
  const b: Rgb = [255 - a[1], 255 - a[2], 255 - a[0]];
  const cx = 0.3 + ((h >>> 24) & 0x3f) / 160;
  const cy = 0.3 + ((h >>> 18) & 0x3f) / 160;
  return (x, y, w, hgt) => {
    const t = (x / w + y / hgt) / 2;
    const dx = x / w - cx;
    const dy = y / hgt - cy;
    if (dx * dx + dy * dy < 0.02) return [250, 250, 250];
    return [
      Math.round(a[0] * (1 - t) + b[0] * t),
      Math.round(a[1] * (1 - t) + b[1] * t),
      Math.round(a[2] * (1 - t) + b[2] * t),
    ];
  };
}
