import { hash32 } from '../state/random.js';

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
  key: string;
}

/**
 * An ISO-BMFF file with `ftyp` at byte 4, a complete `moov` (one avc1 video track whose
 * sample tables match the duration and frame rate) and an `mdat` of deterministic sample
 * bytes. The container is well-formed; the samples are not decodable H.264.
 */
export function makeMp4(spec: Mp4Spec): Buffer {
  const fps = spec.fps ?? 24;
  const frames = Math.max(1, Math.round(spec.seconds * fps));
  const timescale = fps * 512;
  const seed = hash32(spec.key);
  const sizes: number[] = [];
  for (let i = 0; i < frames; i += 1) sizes.push(i % fps === 0 ? 1800 + (seed % 400) : 300 + ((seed >>> (i % 24)) % 200));
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'ascii'));
  const durationMs = Math.round(spec.seconds * 1000);
  const mvhd = fullBox('mvhd', 0, 0, u32(0, 0, 1000, durationMs, 0x00010000), u16(0x0100), Buffer.alloc(10), MATRIX, Buffer.alloc(24), u32(2));
  const tkhd = fullBox('tkhd', 0, 3, u32(0, 0, 1, 0, durationMs), Buffer.alloc(8), u16(0, 0, 0, 0), MATRIX, u32(spec.width << 16, spec.height << 16));
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, timescale, frames * 512), u16(0x55c4, 0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from('vide', 'ascii'), Buffer.alloc(12), Buffer.from('VideoHandler\0', 'ascii'));
  const sps = Buffer.from([0x67, 0x64, 0x00, 0x1f, 0xac, 0xd9, 0x40, 0x50, 0x05, 0xbb, 0x01, 0x10]);
  const pps = Buffer.from([0x68, 0xeb, 0xe3, 0xcb, 0x22, 0xc0]);
  const avcC = box('avcC', Buffer.from([1, 0x64, 0x00, 0x1f, 0xff, 0xe1]), u16(sps.length), sps, Buffer.from([1]), u16(pps.length), pps);
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
  const stss = fullBox('stss', 0, 0, u32(Math.ceil(frames / fps)), u32(...Array.from({ length: Math.ceil(frames / fps) }, (_, i) => i * fps + 1)));
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
  const total = sizes.reduce((a, b) => a + b, 0);
  const samples = Buffer.alloc(total);
  let state = seed || 1;
  for (let i = 0; i < total; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    samples[i] = state >>> 24;
  }
  return Buffer.concat([ftyp, moov, box('mdat', samples)]);
}
