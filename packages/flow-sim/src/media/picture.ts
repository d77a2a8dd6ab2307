import type { Yuv420 } from './h264.js';
import type { Rgb } from './pixels.js';

/** An 8-bit RGB picture, rows top to bottom, 3 bytes a pixel. */
export interface Raster {
  width: number;
  height: number;
  rgb: Uint8Array;
}

type Painter = (x: number, y: number, w: number, h: number) => Rgb;

/** Where a `width`×`height` window cut from the middle of a source scaled to cover it starts. */
function coverGeometry(
  srcWidth: number,
  srcHeight: number,
  width: number,
  height: number,
): { scale: number; x0: number; y0: number } {
  const scale = Math.max(width / srcWidth, height / srcHeight);
  return { scale, x0: (srcWidth - width / scale) / 2, y0: (srcHeight - height / scale) / 2 };
}

/**
 * Paints `paint` (a painter for a `srcWidth`×`srcHeight` picture, pixels.ts) onto a
 * `width`×`height` raster scaled to cover it (aspect kept, centred, the overflow cut off), the way a
 * start frame of another shape fills a clip.
 */
export function paintCover(paint: Painter, srcWidth: number, srcHeight: number, width: number, height: number): Raster {
  const { scale, x0, y0 } = coverGeometry(srcWidth, srcHeight, width, height);
  const rgb = new Uint8Array(width * height * 3);
  let o = 0;
  for (let y = 0; y < height; y += 1) {
    const sy = y0 + (y + 0.5) / scale - 0.5;
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = paint(x0 + (x + 0.5) / scale - 0.5, sy, srcWidth, srcHeight);
      rgb[o++] = r;
      rgb[o++] = g;
      rgb[o++] = b;
    }
  }
  return { width, height, rgb };
}

/** For each output index along one axis: the source indices [from, to) whose centres fall in its footprint. */
function spans(srcLength: number, length: number, scale: number, start: number): Int32Array {
  const out = new Int32Array(length * 2);
  for (let i = 0; i < length; i += 1) {
    const a = start + i / scale;
    const b = start + (i + 1) / scale;
    let from = Math.ceil(a - 0.5);
    let to = Math.ceil(b - 0.5);
    if (to <= from) {
      from = Math.floor((a + b) / 2);
      to = from + 1;
    }
    from = Math.min(Math.max(from, 0), srcLength - 1);
    out[i * 2] = from;
    out[i * 2 + 1] = Math.min(Math.max(to, from + 1), srcLength);
  }
  return out;
}

/**
 * Scales `src` to cover `width`×`height` (aspect kept, centred, overflow cut off): a box filter
 * where it shrinks (each output pixel the mean of the source pixels it covers), nearest
 * neighbour where it grows.
 */
export function coverScale(src: Raster, width: number, height: number): Raster {
  if (src.width === width && src.height === height) return src;
  const { scale, x0, y0 } = coverGeometry(src.width, src.height, width, height);
  const xs = spans(src.width, width, scale, x0);
  const ys = spans(src.height, height, scale, y0);
  const rgb = new Uint8Array(width * height * 3);
  let o = 0;
  for (let y = 0; y < height; y += 1) {
    const yFrom = ys[y * 2] ?? 0;
    const yTo = ys[y * 2 + 1] ?? 1;
    for (let x = 0; x < width; x += 1) {
      const xFrom = xs[x * 2] ?? 0;
      const xTo = xs[x * 2 + 1] ?? 1;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = yFrom; sy < yTo; sy += 1) {
        let i = (sy * src.width + xFrom) * 3;
        for (let sx = xFrom; sx < xTo; sx += 1) {
          r += src.rgb[i] ?? 0;
          g += src.rgb[i + 1] ?? 0;
          b += src.rgb[i + 2] ?? 0;
          i += 3;
        }
      }
      const n = (yTo - yFrom) * (xTo - xFrom);
      rgb[o++] = Math.round(r / n);
      rgb[o++] = Math.round(g / n);
      rgb[o++] = Math.round(b / n);
    }
  }
  return { width, height, rgb };
}

/**
 * RGB → Y'CbCr 4:2:0, BT.601 limited range (Y' 16–235, Cb/Cr 16–240; the SPS's VUI says so), in
 * planes of the coded size (multiples of 16). Chroma is the mean of each 2×2 block. The padding
 * right of and below the picture repeats its last column and row in every plane, so a decoder's
 * clamping at the coded edge (what a pan reads beyond the picture) equals clamping at the
 * visible edge.
 */
export function toYuv420(raster: Raster): Yuv420 {
  const { width, height, rgb } = raster;
  const codedWidth = Math.ceil(width / 16) * 16;
  const codedHeight = Math.ceil(height / 16) * 16;
  const y = new Uint8Array(codedWidth * codedHeight);
  for (let row = 0; row < codedHeight; row += 1) {
    const sy = Math.min(row, height - 1);
    for (let col = 0; col < codedWidth; col += 1) {
      const i = (sy * width + Math.min(col, width - 1)) * 3;
      const r = rgb[i] ?? 0;
      const g = rgb[i + 1] ?? 0;
      const b = rgb[i + 2] ?? 0;
      y[row * codedWidth + col] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    }
  }
  const cw = codedWidth / 2;
  const ch = codedHeight / 2;
  const visibleCw = Math.ceil(width / 2);
  const visibleCh = Math.ceil(height / 2);
  const cb = new Uint8Array(cw * ch);
  const cr = new Uint8Array(cw * ch);
  for (let row = 0; row < ch; row += 1) {
    const cy = Math.min(row, visibleCh - 1);
    for (let col = 0; col < cw; col += 1) {
      const cx = Math.min(col, visibleCw - 1);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < 2; dy += 1) {
        for (let dx = 0; dx < 2; dx += 1) {
          const i = (Math.min(cy * 2 + dy, height - 1) * width + Math.min(cx * 2 + dx, width - 1)) * 3;
          r += rgb[i] ?? 0;
          g += rgb[i + 1] ?? 0;
          b += rgb[i + 2] ?? 0;
        }
      }
      cb[row * cw + col] = ((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128;
      cr[row * cw + col] = ((112 * r - 94 * g - 18 * b + 512) >> 10) + 128;
    }
  }
  return { width: codedWidth, height: codedHeight, y, cb, cr };
}
