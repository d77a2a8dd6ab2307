import { describe, expect, it } from 'vitest';
import { readImageSize } from './imageSize.js';
import { makeJpeg } from './jpeg.js';
import { frameCount, makeMp4, panOf } from './mp4.js';
import type { Mp4Spec } from './mp4.js';
import { makePng } from './png.js';
import { toYuv420 } from './picture.js';
import type { Raster } from './picture.js';

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'dinf']);

/** Every box by its path (`moov/trak/mdia/minf/stbl/stsz`): [payload start, payload end]. */
function boxes(buf: Buffer, from = 0, to = buf.length, prefix = ''): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let at = from; at + 8 <= to;) {
    const size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const path = prefix + type;
    out.set(path, [at + 8, at + size]);
    if (CONTAINERS.has(type)) for (const [k, v] of boxes(buf, at + 8, at + size, `${path}/`)) out.set(k, v);
    if (type === 'stsd') for (const [k, v] of boxes(buf, at + 16, at + size, `${path}/`)) out.set(k, v);
    if (type === 'avc1') for (const [k, v] of boxes(buf, at + 8 + 78, at + size, `${path}/`)) out.set(k, v);
    at += size;
  }
  return out;
}

function payload(mp4: Buffer, path: string): Buffer {
  const at = boxes(mp4).get(path);
  if (at === undefined) throw new Error(`no ${path}`);
  return mp4.subarray(at[0], at[1]);
}

const STBL = 'moov/trak/mdia/minf/stbl';

/** The samples (each a 4-byte-length-prefixed NAL unit list) as NAL units. */
function nalUnitsOf(mp4: Buffer): Buffer[][] {
  const stsz = payload(mp4, `${STBL}/stsz`);
  const count = stsz.readUInt32BE(8);
  let at = payload(mp4, `${STBL}/stco`).readUInt32BE(8);
  const samples: Buffer[][] = [];
  for (let i = 0; i < count; i += 1) {
    const end = at + stsz.readUInt32BE(12 + i * 4);
    const nals: Buffer[] = [];
    while (at < end) {
      const len = mp4.readUInt32BE(at);
      nals.push(mp4.subarray(at + 4, at + 4 + len));
      at += 4 + len;
    }
    expect(at).toBe(end);
    samples.push(nals);
  }
  return samples;
}

describe('media encoders', () => {
  it('JPEG: JFIF with SOF0 of the requested size, deterministic per key', () => {
    const a = makeJpeg(888, 1184, 'k');
    expect(a.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(a.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(readImageSize(a)).toEqual({ format: 'jpeg', width: 888, height: 1184 });
    expect(makeJpeg(888, 1184, 'k').equals(a)).toBe(true);
    expect(makeJpeg(888, 1184, 'other').equals(a)).toBe(false);
  });

  it('PNG: signature and IHDR', () => {
    expect(readImageSize(makePng(31, 17))).toEqual({ format: 'png', width: 31, height: 17 });
  });

  it('MP4: ftyp at byte 4, moov with an mvhd duration, mdat last', () => {
    const mp4 = makeMp4({ width: 1280, height: 720, seconds: 8, key: 'v' });
    expect(mp4.toString('ascii', 4, 8)).toBe('ftyp');
    const boxes: string[] = [];
    for (let i = 0; i < mp4.length; i += mp4.readUInt32BE(i)) boxes.push(mp4.toString('ascii', i + 4, i + 8));
    expect(boxes).toEqual(['ftyp', 'moov', 'mdat']);
    const mvhd = mp4.indexOf('mvhd');
    expect(mp4.readUInt32BE(mvhd + 16)).toBe(1000);
    expect(mp4.readUInt32BE(mvhd + 20)).toBe(8000);
  });

  it('MP4: sizes, durations and sample tables of the 8 s clips at 360p, 720p and 1080p (both orientations)', () => {
    const measured: Record<string, number> = {};
    for (const [width, height, maxBytes] of [
      [640, 360, 1_000_000],
      [1280, 720, 1_500_000],
      [1920, 1080, 3_300_000],
      [720, 1280, 1_500_000],
    ] as const) {
      const mp4 = makeMp4({ width, height, seconds: 8, key: `size-${width}`, prompt: 'pan right' });
      measured[`${width}x${height}`] = mp4.length;
      expect(mp4.length).toBeLessThan(maxBytes);
      expect(mp4.length).toBeGreaterThan(Math.ceil(width / 16) * Math.ceil(height / 16) * 384);
      const mdhd = payload(mp4, 'moov/trak/mdia/mdhd');
      expect(mdhd.readUInt32BE(16) / mdhd.readUInt32BE(12)).toBe(8);
      const tkhd = payload(mp4, 'moov/trak/tkhd');
      expect([tkhd.readUInt32BE(20), tkhd.readUInt32BE(76) >>> 16, tkhd.readUInt32BE(80) >>> 16]).toEqual([
        8000,
        width,
        height,
      ]);
      const stts = payload(mp4, `${STBL}/stts`);
      expect([stts.readUInt32BE(4), stts.readUInt32BE(8), stts.readUInt32BE(12)]).toEqual([1, 192, 512]);
      expect([...payload(mp4, `${STBL}/stss`)]).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
      const samples = nalUnitsOf(mp4);
      expect(samples).toHaveLength(192);
      expect(samples.map((nals) => nals.map((n) => (n[0] ?? 0) & 0x1f))).toEqual([
        [5],
        ...new Array<number[]>(191).fill([1]),
      ]);
      const mdat = boxes(mp4).get('mdat') ?? [0, 0];
      expect(mdat[1]).toBe(mp4.length);
      expect(payload(mp4, `${STBL}/stco`).readUInt32BE(8)).toBe(mdat[0]);
      // every P frame is small: one raw picture plus a little
      for (const [nal] of samples.slice(1)) expect(nal?.length).toBeLessThan(400);
    }
    expect(Object.keys(measured)).toHaveLength(4);
  });

  it("MP4: avcC carries the stream's SPS and PPS; durations follow the seconds; deterministic per spec", () => {
    const spec: Mp4Spec = { width: 640, height: 360, seconds: 4, key: 'k' };
    const mp4 = makeMp4(spec);
    const avcC = payload(mp4, `${STBL}/stsd/avc1/avcC`);
    const spsLength = avcC.readUInt16BE(6);
    const sps = avcC.subarray(8, 8 + spsLength);
    expect([avcC[0], avcC[1], avcC[2], avcC[3], avcC[4], avcC[5]]).toEqual([1, 66, 0xc0, 30, 0xff, 0xe1]);
    expect([sps[0], sps[1], sps[2], sps[3]]).toEqual([0x67, 66, 0xc0, 30]);
    expect(avcC[8 + spsLength]).toBe(1);
    expect(avcC[8 + spsLength + 3]).toBe(0x68);
    expect(frameCount(spec)).toBe(96);
    expect(nalUnitsOf(mp4)).toHaveLength(96);
    expect(makeMp4(spec).equals(mp4)).toBe(true);
    expect(makeMp4({ ...spec, key: 'other' }).equals(mp4)).toBe(false);
    expect(makeMp4({ ...spec, prompt: 'pan left' }).equals(makeMp4({ ...spec, prompt: 'pan right' }))).toBe(false);
    expect(panOf({ ...spec, prompt: 'pan left' })).toEqual({ x: -80, y: 0 });
    expect(panOf({ ...spec, pan: { x: 10, y: 0 } })).toEqual({ x: 10, y: 0 });
    expect(nalUnitsOf(makeMp4({ ...spec, seconds: 6 }))).toHaveLength(144);
  });

  it('MP4: the IDR frame carries the given picture (cover-scaled) as raw I_PCM samples', () => {
    // a 2:1 picture of two colours, into a 16:9 clip: scaled, the middle kept
    const picture: Raster = { width: 64, height: 32, rgb: new Uint8Array(64 * 32 * 3) };
    for (let i = 0; i < 64 * 32; i += 1) picture.rgb.set(i % 64 < 32 ? [200, 30, 30] : [30, 30, 200], i * 3);
    const mp4 = makeMp4({ width: 64, height: 36, seconds: 1, key: 'p', picture });
    const [[idr = Buffer.alloc(0)] = []] = nalUnitsOf(mp4);
    expect(idr[0]).toBe(0x65);
    const expected = toYuv420({
      width: 64,
      height: 36,
      rgb: new Uint8Array(64 * 36 * 3).map(
        (_, i) => (Math.floor(i / 3) % 64 < 32 ? [200, 30, 30] : [30, 30, 200])[i % 3] ?? 0,
      ),
    });
    // Slice header (20 bits) + mb_type ue(25) (9 bits) + alignment: the samples start at RBSP byte 4;
    // each later macroblock is 2 bytes of mb_type and alignment, then 384 samples. Limited-range
    // samples (≥ 16) never need emulation prevention here.
    const rbsp = idr.subarray(1);
    for (let mb = 0; mb < 4 * 3; mb += 1) {
      const at = 4 + mb * 386;
      const [mx, my] = [mb % 4, Math.floor(mb / 4)];
      for (let y = 0; y < 16; y += 1) {
        expect([...rbsp.subarray(at + y * 16, at + y * 16 + 16)]).toEqual([
          ...expected.y.subarray((my * 16 + y) * 64 + mx * 16, (my * 16 + y) * 64 + mx * 16 + 16),
        ]);
      }
      for (let y = 0; y < 8; y += 1) {
        expect([...rbsp.subarray(at + 256 + y * 8, at + 256 + y * 8 + 8)]).toEqual([
          ...expected.cb.subarray((my * 8 + y) * 32 + mx * 8, (my * 8 + y) * 32 + mx * 8 + 8),
        ]);
      }
    }
    expect(rbsp.length).toBe(4 + 11 * 386 + 384 + 1);
    expect(rbsp[rbsp.length - 1]).toBe(0x80);
    expect(expected.y[0]).toBe(((66 * 200 + 129 * 30 + 25 * 30 + 128) >> 8) + 16);
    expect(expected.y[63]).toBe(((66 * 30 + 129 * 30 + 25 * 200 + 128) >> 8) + 16);
  });
});
