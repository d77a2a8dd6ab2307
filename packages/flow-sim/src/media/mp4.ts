import { encodeStream } from './h264.js';
import type { Pan } from './pan.js';
import { panFor, panSteps } from './pan.js';
import { coverScale, paintCover, toYuv420 } from './picture.js';
import type { Raster } from './picture.js';
import { painterFor } from './pixels.js';

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff));
  return box(type, vf, ...payload);
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeUInt16BE(v & 0xffff, i * 2));
  return b;
}

const MATRIX = u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000);

export interface Mp4Spec {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** Seeds the picture (painterFor) when there is no `picture`, and the pan when there is no `prompt`. */
  key: string;
  /** What the camera looks at (e.g. an i2v start frame), scaled to cover width×height. */
  picture?: Raster;
  /** Where the camera move comes from (panFor); `key` when absent. */
  prompt?: string;
  /** The camera's total travel in pixels (rounded to even), instead of the prompt's. */
  pan?: Pan;
}

/** The camera move of a spec (exported for tests that predict the last frame). */
export function panOf(spec: Mp4Spec): Pan {
  return spec.pan ?? panFor(spec.prompt ?? spec.key, spec.width, spec.height);
}

/** Frames of a spec: `seconds` at `fps` (24), at least one. */
export function frameCount(spec: Pick<Mp4Spec, 'seconds' | 'fps'>): number {
  return Math.max(1, Math.round(spec.seconds * (spec.fps ?? 24)));
}

/**
 * A playable MP4: `ftyp` at byte 4, a complete `moov` (one avc1 track whose sample tables match
 * the duration and frame rate, an avcC with the stream's SPS and PPS, only sample 1 a sync sample)
 * and an `mdat` of length-prefixed H.264 NAL units (h264.ts): a Constrained Baseline stream whose
 * first frame is the picture exactly (I_PCM) and whose later frames pan it (P frames), deterministic
 * per spec. About one raw 4:2:0 picture in size: ≈ 0.36 MB at 640×360, 1.4 MB at 1280×720,
 * 3.2 MB at 1920×1080 for 8 s.
 */
export function makeMp4(spec: Mp4Spec): Buffer {
  const fps = spec.fps ?? 24;
  const frames = frameCount(spec);
  const timescale = fps * 512;
  // 4:2:0 cropping works in pairs of pixels: an odd size is coded one pixel larger.
  const width = spec.width + (spec.width % 2);
  const height = spec.height + (spec.height % 2);
  const picture =
    spec.picture === undefined
      ? paintCover(painterFor(spec.key), width, height, width, height)
      : coverScale(spec.picture, width, height);
  const stream = encodeStream(
    { width, height, fps },
    toYuv420(picture),
    panSteps(panOf({ ...spec, width, height }), frames),
  );
  const samples = stream.frames.map((nal) => Buffer.concat([u32(nal.length), nal]));
  const sizes = samples.map((s) => s.length);
  const { sps, pps } = stream;
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'ascii'));
  const durationMs = Math.round(spec.seconds * 1000);
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0, 0, 1000, durationMs, 0x00010000),
    u16(0x0100),
    Buffer.alloc(10),
    MATRIX,
    Buffer.alloc(24),
    u32(2),
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0, 0, 1, 0, durationMs),
    Buffer.alloc(8),
    u16(0, 0, 0, 0),
    MATRIX,
    u32(spec.width << 16, spec.height << 16),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, timescale, frames * 512), u16(0x55c4, 0));
  const hdlr = fullBox(
    'hdlr',
    0,
    0,
    u32(0),
    Buffer.from('vide', 'ascii'),
    Buffer.alloc(12),
    Buffer.from('VideoHandler\0', 'ascii'),
  );
  // AVCDecoderConfigurationRecord: version 1, profile/compatibility/level from the SPS, 4-byte lengths, one SPS, one PPS.
  const avcC = box(
    'avcC',
    Buffer.from([1, sps[1] ?? 66, sps[2] ?? 0, sps[3] ?? 30, 0xff, 0xe1]),
    u16(sps.length),
    sps,
    Buffer.from([1]),
    u16(pps.length),
    pps,
  );
  const avc1 = box(
    'avc1',
    Buffer.alloc(6),
    u16(1),
    Buffer.alloc(16),
    u16(spec.width, spec.height),
    u32(0x00480000, 0x00480000, 0),
    u16(1),
    Buffer.alloc(32),
    u16(0x0018, 0xffff),
    avcC,
  );
  const stsd = fullBox('stsd', 0, 0, u32(1), avc1);
  const stts = fullBox('stts', 0, 0, u32(1, frames, 512));
  // One IDR, then P frames that each need the one before: only sample 1 is a sync sample.
  const stss = fullBox('stss', 0, 0, u32(1, 1));
  const stsc = fullBox('stsc', 0, 0, u32(1, 1, frames, 1));
  const stsz = fullBox('stsz', 0, 0, u32(0, frames), u32(...sizes));
  const buildMoov = (mdatOffset: number): Buffer => {
    const stco = fullBox('stco', 0, 0, u32(1, mdatOffset));
    const stbl = box('stbl', stsd, stts, stss, stsc, stsz, stco);
    const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
    const minf = box('minf', fullBox('vmhd', 0, 1, Buffer.alloc(8)), dinf, stbl);
    const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, minf));
    return box('moov', mvhd, trak);
  };
  const moovLength = buildMoov(0).length;
  const moov = buildMoov(ftyp.length + moovLength + 8);
  return Buffer.concat([ftyp, moov, box('mdat', ...samples)]);
}
