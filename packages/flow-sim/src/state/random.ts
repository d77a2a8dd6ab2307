import { createHash } from 'node:crypto';

/** A small deterministic PRNG (splitmix32) so a seed reproduces ids, media and timings. */
export class SeededRandom {
  #state: number;

  constructor(seed: string) {
    this.#state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  }

  /** Next unsigned 32-bit integer. */
  nextU32(): number {
    this.#state = (this.#state + 0x9e3779b9) | 0;
    let z = this.#state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextU32() / 0x1_0000_0000;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 1) out += (this.nextU32() & 0xff).toString(16).padStart(2, '0');
    return out;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const h = this.hex(16).split('');
    h[12] = '4';
    h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** A deterministic 32-bit hash of a string (for per-media pixel content). */
export function hash32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}
