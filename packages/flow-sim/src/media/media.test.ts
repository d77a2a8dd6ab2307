import { describe, expect, it } from 'vitest';
import { readImageSize } from './imageSize.js';
import { makeJpeg } from './jpeg.js';
import { makeMp4 } from './mp4.js';
import { makePng } from './png.js';

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
});
