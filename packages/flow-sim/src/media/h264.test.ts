import { describe, expect, it } from 'vitest';
import { BitWriter, encodeStream, escapeRbsp, idrSliceRbsp, levelFor, ppsRbsp, pSliceRbsp, spsRbsp } from './h264.js';
import { toYuv420 } from './picture.js';

/** An independent reader for what the writer produced (clause 9.1 read the other way). */
class BitReader {
  #at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i += 1) {
      const byte = this.bytes[this.#at >> 3];
      if (byte === undefined) throw new Error('read past the end');
      v = v * 2 + ((byte >> (7 - (this.#at & 7))) & 1);
      this.#at += 1;
    }
    return v;
  }

  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros += 1;
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : k === 0 ? 0 : -k / 2;
  }

  get aligned(): boolean {
    return (this.#at & 7) === 0;
  }

  /** rbsp_trailing_bits and nothing after them. */
  expectTrailing(): void {
    expect(this.u(1)).toBe(1);
    while (!this.aligned) expect(this.u(1)).toBe(0);
    expect(this.#at >> 3).toBe(this.bytes.length);
  }
}

function bits(write: (w: BitWriter) => void): string {
  const w = new BitWriter();
  write(w);
  w.trailing();
  const out = [...w.bytes()].map((b) => b.toString(2).padStart(8, '0')).join('');
  return out.slice(0, out.lastIndexOf('1'));
}

/** Removes emulation prevention bytes (the decoder's side of 7.4.1). */
function unescape(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

interface ParsedSps {
  profile: number;
  constraints: number;
  level: number;
  log2MaxFrameNum: number;
  pocType: number;
  maxRefFrames: number;
  width: number;
  height: number;
  frameMbsOnly: number;
  timeScale: number;
  numUnitsInTick: number;
  matrix: number;
  fullRange: number;
  maxReorder: number;
  maxDecBuffering: number;
}

function parseSps(rbsp: Uint8Array): ParsedSps {
  const r = new BitReader(rbsp);
  const profile = r.u(8);
  const constraints = r.u(8);
  const level = r.u(8);
  expect(r.ue()).toBe(0);
  const log2MaxFrameNum = r.ue() + 4;
  const pocType = r.ue();
  const maxRefFrames = r.ue();
  expect(r.u(1)).toBe(0);
  const mbW = r.ue() + 1;
  const mbH = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  r.u(1);
  let crop = [0, 0, 0, 0];
  if (r.u(1) === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  expect(r.u(1)).toBe(1); // VUI
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(1);
  r.u(3);
  const fullRange = r.u(1);
  expect(r.u(1)).toBe(1);
  r.u(8);
  r.u(8);
  const matrix = r.u(8);
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(1);
  const numUnitsInTick = r.u(32);
  const timeScale = r.u(32);
  expect(r.u(1)).toBe(1);
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(0);
  expect(r.u(1)).toBe(1);
  r.u(1);
  r.ue();
  r.ue();
  r.ue();
  r.ue();
  const maxReorder = r.ue();
  const maxDecBuffering = r.ue();
  r.expectTrailing();
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  return {
    profile,
    constraints,
    level,
    log2MaxFrameNum,
    pocType,
    maxRefFrames,
    width: mbW * 16 - 2 * (left + right),
    height: mbH * 16 - 2 * (top + bottom),
    frameMbsOnly,
    timeScale,
    numUnitsInTick,
    matrix,
    fullRange,
    maxReorder,
    maxDecBuffering,
  };
}

function readSliceHeader(
  r: BitReader,
  idr: boolean,
): { sliceType: number; frameNum: number; disableDeblocking: number } {
  expect(r.ue()).toBe(0); // first_mb_in_slice
  const sliceType = r.ue();
  expect(r.ue()).toBe(0); // pps id
  const frameNum = r.u(4);
  if (idr) expect(r.ue()).toBe(0);
  else {
    expect(r.u(1)).toBe(0);
    expect(r.u(1)).toBe(0);
  }
  if (idr) {
    expect(r.u(1)).toBe(0);
    expect(r.u(1)).toBe(0);
  } else expect(r.u(1)).toBe(0);
  expect(r.se()).toBe(0);
  return { sliceType, frameNum, disableDeblocking: r.ue() };
}

describe('H.264 bitstream pieces', () => {
  it('Exp-Golomb codes of clause 9.1 (ue, se) and fixed-width fields', () => {
    expect(bits((w) => w.ue(0))).toBe('1');
    expect(bits((w) => w.ue(1))).toBe('010');
    expect(bits((w) => w.ue(2))).toBe('011');
    expect(bits((w) => w.ue(3))).toBe('00100');
    expect(bits((w) => w.ue(25))).toBe('000011010');
    expect(bits((w) => w.se(1))).toBe('010');
    expect(bits((w) => w.se(-1))).toBe('011');
    expect(bits((w) => w.se(2))).toBe('00100');
    expect(bits((w) => w.se(-8))).toBe('000010001');
    expect(bits((w) => w.u(32, 0xdeadbeef))).toBe('11011110101011011011111011101111');
    expect(() => new BitWriter().ue(-1)).toThrow(RangeError);
  });

  it('round-trips through an independent reader', () => {
    const values = [0, 1, 2, 7, 8, 255, 256, 1000, 65535, 123456, 2 ** 31];
    const w = new BitWriter();
    for (const v of values) {
      w.ue(v);
      w.se(v);
      w.se(v === 0 ? 0 : -v);
      w.u(5, v & 31);
    }
    w.trailing();
    const r = new BitReader(w.bytes());
    for (const v of values) {
      expect(r.ue()).toBe(v);
      expect(r.se()).toBe(v);
      expect(r.se()).toBe(v === 0 ? 0 : -v);
      expect(r.u(5)).toBe(v & 31);
    }
    r.expectTrailing();
  });

  it('emulation prevention: 0x000000–0x000003 never appear, and unescaping restores the payload', () => {
    expect([...escapeRbsp(Uint8Array.from([0, 0, 0]))]).toEqual([0, 0, 3, 0]);
    expect([...escapeRbsp(Uint8Array.from([0, 0, 1, 0, 0, 2, 0, 0, 3]))]).toEqual([0, 0, 3, 1, 0, 0, 3, 2, 0, 0, 3, 3]);
    expect([...escapeRbsp(Uint8Array.from([0, 0, 4, 0, 0]))]).toEqual([0, 0, 4, 0, 0]);
    let state = 7;
    const noisy = Uint8Array.from({ length: 5000 }, () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state >>> 30; // 0–3: the worst case
    });
    const escaped = escapeRbsp(noisy);
    for (let i = 2; i < escaped.length; i += 1) {
      if (escaped[i - 2] === 0 && escaped[i - 1] === 0) expect(escaped[i]).toBe(3);
    }
    expect([...unescape(escaped)]).toEqual([...noisy]);
  });

  it('SPS: Constrained Baseline, POC type 2, frame MBs only, cropped to the display size, BT.601 limited, no reordering', () => {
    for (const [width, height, level] of [
      [640, 360, 30],
      [360, 640, 30],
      [1280, 720, 31],
      [1920, 1080, 41],
      [1080, 1920, 41],
      [32, 18, 10],
    ] as const) {
      const sps = parseSps(spsRbsp({ width, height, fps: 24 }));
      expect(sps).toEqual({
        profile: 66,
        constraints: 0xc0,
        level,
        log2MaxFrameNum: 4,
        pocType: 2,
        maxRefFrames: 1,
        width,
        height,
        frameMbsOnly: 1,
        timeScale: 48,
        numUnitsInTick: 1,
        matrix: 6,
        fullRange: 0,
        maxReorder: 0,
        maxDecBuffering: 1,
      });
    }
    expect(levelFor(40, 23, 24)).toBe(30);
    expect(levelFor(80, 45, 60)).toBe(32);
  });

  it('PPS: CAVLC, one slice group, no ref_idx in macroblocks, deblocking control present', () => {
    const r = new BitReader(ppsRbsp());
    expect([
      r.ue(),
      r.ue(),
      r.u(1),
      r.u(1),
      r.ue(),
      r.ue(),
      r.ue(),
      r.u(1),
      r.u(2),
      r.se(),
      r.se(),
      r.se(),
      r.u(1),
      r.u(1),
      r.u(1),
    ]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    r.expectTrailing();
  });

  it('IDR slice: I slice, deblocking off, every macroblock I_PCM with the raw samples byte-aligned', () => {
    const rgb = new Uint8Array(48 * 20 * 3).map((_, i) => (i * 37) % 256);
    const yuv = toYuv420({ width: 48, height: 20, rgb });
    const r = new BitReader(idrSliceRbsp(yuv));
    expect(readSliceHeader(r, true)).toEqual({ sliceType: 7, frameNum: 0, disableDeblocking: 1 });
    for (let mb = 0; mb < 3 * 2; mb += 1) {
      const mx = mb % 3;
      const my = Math.floor(mb / 3);
      expect(r.ue()).toBe(25);
      while (!r.aligned) expect(r.u(1)).toBe(0);
      for (let y = 0; y < 16; y += 1)
        for (let x = 0; x < 16; x += 1) expect(r.u(8)).toBe(yuv.y[(my * 16 + y) * 48 + mx * 16 + x]);
      for (const plane of [yuv.cb, yuv.cr]) {
        for (let y = 0; y < 8; y += 1)
          for (let x = 0; x < 8; x += 1) expect(r.u(8)).toBe(plane[(my * 8 + y) * 24 + mx * 8 + x]);
      }
    }
    r.expectTrailing();
  });

  it('P slice: the first row and column coded as P_L0_16x16 (mvd = vector at MB 0, else 0; cbp 0), the rest P_Skip', () => {
    const [mbW, mbH] = [5, 4];
    const r = new BitReader(pSliceRbsp(mbW, mbH, 21, 6, -4));
    expect(readSliceHeader(r, false)).toEqual({ sliceType: 5, frameNum: 21 % 16, disableDeblocking: 1 });
    const coded: number[] = [];
    let addr = 0;
    while (addr < mbW * mbH) {
      addr += r.ue(); // mb_skip_run
      if (addr >= mbW * mbH) break;
      expect(r.ue()).toBe(0); // P_L0_16x16
      const mvd = [r.se(), r.se()];
      expect(mvd).toEqual(addr === 0 ? [24, -16] : [0, 0]);
      expect(r.ue()).toBe(0); // cbp 0
      coded.push(addr);
      addr += 1;
    }
    r.expectTrailing();
    expect(coded).toEqual([0, 1, 2, 3, 4, 5, 10, 15]);
    const still = new BitReader(pSliceRbsp(mbW, mbH, 3, 0, 0));
    readSliceHeader(still, false);
    expect(still.ue()).toBe(mbW * mbH);
    still.expectTrailing();
    expect(() => pSliceRbsp(mbW, mbH, 1, 1, 0)).toThrow(RangeError);
  });

  it('stream: SPS/PPS/IDR/non-IDR NAL headers, frame_num counting modulo 16, NAL payloads escaped', () => {
    const yuv = toYuv420({ width: 32, height: 32, rgb: new Uint8Array(32 * 32 * 3) });
    const steps = Array.from({ length: 20 }, (_, i) => ({ x: i % 2 === 0 ? 2 : 0, y: 0 }));
    const s = encodeStream({ width: 32, height: 32, fps: 24 }, yuv, steps);
    expect([s.sps[0], s.pps[0], s.frames[0]?.[0], s.frames[1]?.[0]]).toEqual([0x67, 0x68, 0x65, 0x41]);
    expect(s.frames).toHaveLength(21);
    s.frames.slice(1).forEach((nal, i) => {
      const r = new BitReader(unescape(nal.subarray(1)));
      expect(readSliceHeader(r, false).frameNum).toBe((i + 1) % 16);
    });
    for (const nal of [s.sps, s.pps, ...s.frames]) {
      for (let i = 2; i < nal.length; i += 1)
        if (nal[i - 2] === 0 && nal[i - 1] === 0) expect(nal[i]).toBeGreaterThanOrEqual(3);
    }
  });
});
