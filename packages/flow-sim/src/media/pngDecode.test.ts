import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng, makePng } from './png.js';
import { decodePng } from './pngDecode.js';
import { painterFor } from './pixels.js';

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG whose rows are filtered with `filters[y % filters.length]` (the encoder's side of filtering). */
function png(opts: {
  width: number;
  height: number;
  colorType: number;
  channels: number;
  samples: number[];
  filters: number[];
  depth?: number;
  interlace?: number;
  extra?: Buffer[];
}): Buffer {
  const { width, height, channels, samples, filters } = opts;
  const stride = width * channels;
  const raw: number[] = [];
  for (let y = 0; y < height; y += 1) {
    const filter = filters[y % filters.length] ?? 0;
    raw.push(filter);
    for (let i = 0; i < stride; i += 1) {
      const x = samples[y * stride + i] ?? 0;
      const a = i >= channels ? (samples[y * stride + i - channels] ?? 0) : 0;
      const b = y > 0 ? (samples[(y - 1) * stride + i] ?? 0) : 0;
      const c = i >= channels && y > 0 ? (samples[(y - 1) * stride + i - channels] ?? 0) : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter] ?? 0;
      raw.push((x - predictor) & 0xff);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = opts.depth ?? 8;
  ihdr[9] = opts.colorType;
  ihdr[12] = opts.interlace ?? 0;
  const data = deflateSync(Buffer.from(raw));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(opts.extra ?? []),
    // split across two IDAT chunks: the decoder must join them
    chunk('IDAT', data.subarray(0, 5)),
    chunk('IDAT', data.subarray(5)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function noise(n: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 24;
  });
}

describe('PNG decoding (start frames)', () => {
  it('RGB with every filter type', () => {
    const samples = noise(7 * 5 * 3, 1);
    const decoded = decodePng(
      png({ width: 7, height: 5, colorType: 2, channels: 3, samples, filters: [0, 1, 2, 3, 4] }),
    );
    expect(decoded?.width).toBe(7);
    expect(decoded?.height).toBe(5);
    expect([...(decoded?.rgb ?? [])]).toEqual(samples);
  });

  it('RGBA and gray+alpha composite over black; gray expands; palette with tRNS', () => {
    const rgba = [10, 20, 30, 255, 200, 100, 50, 0, 255, 255, 255, 128];
    expect([
      ...(decodePng(png({ width: 3, height: 1, colorType: 6, channels: 4, samples: rgba, filters: [4] }))?.rgb ?? []),
    ]).toEqual([10, 20, 30, 0, 0, 0, 128, 128, 128]);
    expect([
      ...(decodePng(
        png({ width: 2, height: 2, colorType: 0, channels: 1, samples: [0, 50, 100, 255], filters: [3, 2] }),
      )?.rgb ?? []),
    ]).toEqual([0, 0, 0, 50, 50, 50, 100, 100, 100, 255, 255, 255]);
    expect([
      ...(decodePng(png({ width: 2, height: 1, colorType: 4, channels: 2, samples: [200, 255, 200, 0], filters: [1] }))
        ?.rgb ?? []),
    ]).toEqual([200, 200, 200, 0, 0, 0]);
    const palette = chunk('PLTE', Buffer.from([255, 0, 0, 0, 255, 0]));
    const trns = chunk('tRNS', Buffer.from([255, 0]));
    expect([
      ...(decodePng(
        png({ width: 2, height: 1, colorType: 3, channels: 1, samples: [1, 0], filters: [0], extra: [palette] }),
      )?.rgb ?? []),
    ]).toEqual([0, 255, 0, 255, 0, 0]);
    expect([
      ...(decodePng(
        png({ width: 2, height: 1, colorType: 3, channels: 1, samples: [1, 0], filters: [0], extra: [palette, trns] }),
      )?.rgb ?? []),
    ]).toEqual([0, 0, 0, 255, 0, 0]);
  });

  it('falls back (undefined) on 16-bit, interlaced, a bad filter, truncated data and non-PNGs', () => {
    expect(
      decodePng(
        png({ width: 2, height: 1, colorType: 2, channels: 6, samples: noise(12, 2), filters: [0], depth: 16 }),
      ),
    ).toBeUndefined();
    expect(
      decodePng(
        png({ width: 2, height: 1, colorType: 2, channels: 3, samples: noise(6, 3), filters: [0], interlace: 1 }),
      ),
    ).toBeUndefined();
    expect(
      decodePng(png({ width: 2, height: 1, colorType: 2, channels: 3, samples: noise(6, 3), filters: [7] })),
    ).toBeUndefined();
    const good = png({ width: 4, height: 4, colorType: 2, channels: 3, samples: noise(48, 4), filters: [1] });
    expect(decodePng(good.subarray(0, good.length - 30))).toBeUndefined();
    expect(decodePng(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(40).fill(0)]))).toBeUndefined();
  });

  it('reads what makePng and encodePng write', () => {
    const decoded = decodePng(makePng(31, 17, 'k'));
    const paint = painterFor('k');
    expect(decoded?.rgb.subarray((5 * 31 + 9) * 3, (5 * 31 + 9) * 3 + 3)).toEqual(Uint8Array.from(paint(9, 5, 31, 17)));
    const rgb = Uint8Array.from(noise(10 * 3 * 3, 9));
    expect(decodePng(encodePng({ width: 10, height: 3, rgb }))?.rgb).toEqual(rgb);
  });
});
