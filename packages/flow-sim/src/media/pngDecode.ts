import { inflateSync } from 'node:zlib';
import type { Raster } from './picture.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Beyond this many pixels an upload is painted instead of decoded (memory and time). */
const MAX_PIXELS = 40_000_000;

/** Channels per colour type at bit depth 8: gray, RGB, palette, gray+alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes a non-interlaced 8-bit PNG (gray, gray+alpha, RGB, RGBA or palette) into RGB, alpha
 * composited over black (a clip has no alpha). Anything else — another bit depth, Adam7, a
 * damaged stream, not a PNG — gives `undefined`, and the caller paints instead.
 */
export function decodePng(bytes: Buffer): Raster | undefined {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(SIGNATURE)) return undefined;
  let width = 0;
  let height = 0;
  let colorType = -1;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const idat: Buffer[] = [];
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return undefined;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colorType = data[9] ?? -1;
      if (data[8] !== 8 || data[12] !== 0 || CHANNELS[colorType] === undefined) return undefined;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const channels = CHANNELS[colorType];
  if (channels === undefined || width === 0 || height === 0 || width * height > MAX_PIXELS || idat.length === 0)
    return undefined;
  if (colorType === 3 && palette === undefined) return undefined;
  const stride = width * channels;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  } catch {
    return undefined;
  }
  if (raw.length < (stride + 1) * height) return undefined;
  // Unfilter in place (filter method 0: None, Sub, Up, Average, Paeth; bpp = channels at depth 8).
  const lines = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let i = 0; i < stride; i += 1) {
      const x = raw[src + i] ?? 0;
      const a = i >= channels ? (lines[row + i - channels] ?? 0) : 0;
      const b = y > 0 ? (lines[row - stride + i] ?? 0) : 0;
      const c = i >= channels && y > 0 ? (lines[row - stride + i - channels] ?? 0) : 0;
      let value: number;
      if (filter === 0) value = x;
      else if (filter === 1) value = x + a;
      else if (filter === 2) value = x + b;
      else if (filter === 3) value = x + ((a + b) >> 1);
      else if (filter === 4) value = x + paeth(a, b, c);
      else return undefined;
      lines[row + i] = value & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p += 1) {
    const i = p * channels;
    let r: number;
    let g: number;
    let b: number;
    let alpha = 255;
    if (colorType === 3) {
      const index = lines[i] ?? 0;
      r = palette?.[index * 3] ?? 0;
      g = palette?.[index * 3 + 1] ?? 0;
      b = palette?.[index * 3 + 2] ?? 0;
      alpha = transparency?.[index] ?? 255;
    } else if (colorType === 0 || colorType === 4) {
      r = g = b = lines[i] ?? 0;
      if (colorType === 4) alpha = lines[i + 1] ?? 255;
    } else {
      r = lines[i] ?? 0;
      g = lines[i + 1] ?? 0;
      b = lines[i + 2] ?? 0;
      if (colorType === 6) alpha = lines[i + 3] ?? 255;
    }
    rgb[p * 3] = Math.round((r * alpha) / 255);
    rgb[p * 3 + 1] = Math.round((g * alpha) / 255);
    rgb[p * 3 + 2] = Math.round((b * alpha) / 255);
  }
  return { width, height, rgb };
}
