import { type Rgb, painterFor } from './pixels.js';

/** A 16-colour palette: black, white and a ramp between the painter's two colours. */
function paletteFor(paint: (x: number, y: number, w: number, h: number) => Rgb): Rgb[] {
  const a = paint(0, 0, 1, 1);
  const b = paint(0.999, 0.999, 1, 1);
  const ramp = Array.from({ length: 14 }, (_, i): Rgb => {
    const t = i / 13;
    return [
      Math.round(a[0] * (1 - t) + b[0] * t),
      Math.round(a[1] * (1 - t) + b[1] * t),
      Math.round(a[2] * (1 - t) + b[2] * t),
    ];
  });
  return [[0, 0, 0], [250, 250, 250], ...ramp];
}

function nearest(palette: readonly Rgb[], c: Rgb): number {
  let best = 0;
  let bestD = Infinity;
  for (const [i, p] of palette.entries()) {
    const d = (p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2;
    if (d < bestD) [best, bestD] = [i, d];
  }
  return best;
}

/** GIF's variable-width LZW (codes packed LSB first into 255-byte sub-blocks). */
function lzw(indices: Uint8Array, minCodeSize: number): Buffer {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out: number[] = [];
  let bits = 0;
  let nbits = 0;
  let width = minCodeSize + 1;
  const emit = (code: number): void => {
    bits |= code << nbits;
    nbits += width;
    while (nbits >= 8) {
      out.push(bits & 0xff);
      bits >>>= 8;
      nbits -= 8;
    }
  };
  let dict = new Map<string, number>();
  let next = end + 1;
  emit(clear);
  let prefix = String(indices[0] ?? 0);
  for (let i = 1; i < indices.length; i += 1) {
    const k = indices[i] ?? 0;
    const key = `${prefix},${k}`;
    if (dict.has(key)) {
      prefix = key;
      continue;
    }
    emit(prefix.includes(',') ? (dict.get(prefix) as number) : Number(prefix));
    if (next < 4096) {
      dict.set(key, next);
      next += 1;
      if (next > 1 << width && width < 12) width += 1;
    } else {
      emit(clear);
      dict = new Map();
      next = end + 1;
      width = minCodeSize + 1;
    }
    prefix = String(k);
  }
  emit(prefix.includes(',') ? (dict.get(prefix) as number) : Number(prefix));
  emit(end);
  if (nbits > 0) out.push(bits & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < out.length; i += 255) {
    const chunk = out.slice(i, i + 255);
    blocks.push(chunk.length, ...chunk);
  }
  blocks.push(0);
  return Buffer.from([minCodeSize, ...blocks]);
}

/**
 * An animated GIF89a (looping, `frames` frames of 10 cs), deterministic per key: the 270p export
 * of a clip. Small palette, real LZW, so any decoder (a browser's `<img>`) shows it.
 */
export function makeGif(width: number, height: number, key: string, frames = 4): Buffer {
  const paint = painterFor(key);
  const palette = paletteFor(paint);
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  header[10] = 0xf3; // global colour table, 8 bits, 16 entries (2^(3+1))
  const table = Buffer.from(palette.flatMap((c) => c));
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  const parts: Buffer[] = [header, table, loop];
  for (let f = 0; f < frames; f += 1) {
    parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 10, 0, 0, 0]));
    const image = Buffer.alloc(10);
    image[0] = 0x2c;
    image.writeUInt16LE(width, 5);
    image.writeUInt16LE(height, 7);
    parts.push(image);
    const indices = new Uint8Array(width * height);
    const shift = Math.round((f / frames) * width);
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1)
        indices[y * width + x] = nearest(palette, paint((x + shift) % width, y, width, height));
    parts.push(lzw(indices, 4));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}
