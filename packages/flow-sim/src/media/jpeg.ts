import { painterFor } from './pixels.js';

/** Huffman table in JPEG DHT form: counts per code length 1..16 and the symbols. */
interface HuffSpec {
  bits: number[];
  values: number[];
}

const DC_TABLE: HuffSpec = {
  bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
  values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
/** Only the end-of-block symbol is ever coded: every block is flat (DC only). */
const AC_TABLE: HuffSpec = { bits: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: [0x00] };
const QUANT = 8;

function canonicalCodes(spec: HuffSpec): Map<number, { code: number; length: number }> {
  const out = new Map<number, { code: number; length: number }>();
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len += 1) {
    const count = spec.bits[len - 1] ?? 0;
    for (let i = 0; i < count; i += 1) {
      out.set(spec.values[k] ?? 0, { code, length: len });
      code += 1;
      k += 1;
    }
    code <<= 1;
  }
  return out;
}

class BitWriter {
  readonly bytes: number[] = [];
  #acc = 0;
  #n = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i -= 1) {
      this.#acc = (this.#acc << 1) | ((value >>> i) & 1);
      this.#n += 1;
      if (this.#n === 8) this.#flushByte();
    }
  }

  #flushByte(): void {
    this.bytes.push(this.#acc);
    if (this.#acc === 0xff) this.bytes.push(0x00);
    this.#acc = 0;
    this.#n = 0;
  }

  finish(): void {
    while (this.#n !== 0) this.write(1, 1);
  }
}

function segment(marker: number, payload: number[]): number[] {
  const len = payload.length + 2;
  return [0xff, marker, len >> 8, len & 0xff, ...payload];
}

function dhtPayload(tableClass: number, id: number, spec: HuffSpec): number[] {
  return [(tableClass << 4) | id, ...spec.bits, ...spec.values];
}

/**
 * A real baseline JPEG (JFIF, YCbCr 4:4:4) of the given size. Each 8×8 block is coded with
 * its DC term only, so the picture is a mosaic of the deterministic painting for `key`.
 */
export function makeJpeg(width: number, height: number, key = 'jpeg'): Buffer {
  const paint = painterFor(key);
  const dc = canonicalCodes(DC_TABLE);
  const eob = canonicalCodes(AC_TABLE).get(0) ?? { code: 0, length: 2 };
  const head = [
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(QUANT)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...segment(0xc4, dhtPayload(0, 0, DC_TABLE)),
    ...segment(0xc4, dhtPayload(1, 0, AC_TABLE)),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
  ];
  const bw = new BitWriter();
  const prev = [0, 0, 0];
  const bw8 = Math.ceil(width / 8);
  const bh8 = Math.ceil(height / 8);
  for (let by = 0; by < bh8; by += 1) {
    for (let bx = 0; bx < bw8; bx += 1) {
      const [r, g, b] = paint(Math.min(bx * 8 + 4, width - 1), Math.min(by * 8 + 4, height - 1), width, height);
      const ycc = [
        0.299 * r + 0.587 * g + 0.114 * b,
        128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      ];
      for (let c = 0; c < 3; c += 1) {
        const level = Math.max(0, Math.min(255, ycc[c] ?? 0)) - 128;
        const q = Math.round((8 * level) / QUANT);
        const diff = q - (prev[c] ?? 0);
        prev[c] = q;
        const magnitude = Math.abs(diff);
        const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
        const code = dc.get(category);
        if (code === undefined) throw new Error(`DC category ${category} out of range`);
        bw.write(code.code, code.length);
        if (category > 0) bw.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
        bw.write(eob.code, eob.length);
      }
    }
  }
  bw.finish();
  return Buffer.from([...head, ...bw.bytes, 0xff, 0xd9]);
}
