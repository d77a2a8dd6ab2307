// Independent readers for what gflow wrote to disk: magic bytes and pixel
// dimensions of JPEG/PNG images and of an MP4's video track (tkhd).
import fs from 'node:fs';

export interface Pixels {
  readonly format: 'jpeg' | 'png' | 'mp4';
  readonly width: number;
  readonly height: number;
}

/** Magic bytes first, then the frame header: JPEG SOFn or PNG IHDR. Null when neither. */
export function imagePixels(file: string): Pixels | null {
  const buf = fs.readFileSync(file);
  if (
    buf.length >= 24 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) &&
    buf.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return { format: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (!(buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff)) return null;
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1] ?? 0;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = buf.readUInt16BE(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { format: 'jpeg', height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

/** An MP4 (`ftyp` at byte 4) and the width × height of its first `tkhd`. Null when not an MP4. */
export function videoPixels(file: string): Pixels | null {
  const buf = fs.readFileSync(file);
  if (buf.length < 12 || buf.toString('latin1', 4, 8) !== 'ftyp') return null;
  const at = buf.indexOf('tkhd', 0, 'latin1');
  if (at < 4) return null;
  const version = buf[at + 4];
  // box body: version/flags, times (2×4 or 2×8), track id, reserved, duration (4 or 8),
  // reserved 8, layer/group/volume/reserved 8, matrix 36, then width and height (16.16).
  const body = at + 4;
  const afterFlags = body + 4;
  const widthAt = afterFlags + (version === 1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4) + 8 + 8 + 36;
  return { format: 'mp4', width: buf.readUInt32BE(widthAt) >>> 16, height: buf.readUInt32BE(widthAt + 4) >>> 16 };
}

/** width / height as a fraction of the named aspect (1 = exact). */
export function aspectError(pixels: Pixels, aspect: string): number {
  const [w, h] = aspect.split(':').map(Number);
  if (!w || !h) throw new Error(`not an aspect: ${aspect}`);
  return Math.abs(pixels.width / pixels.height / (w / h) - 1);
}
