import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, isMp4, mimeOf, sniffImage, sniffMedia } from './media.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const webp = Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1');
const gif = Buffer.from('GIF89a....', 'latin1');
const mp4 = Buffer.from('\0\0\0\x18ftypisom', 'latin1');

describe('magic bytes', () => {
  it('sniffs images by their whole signature', () => {
    expect([png, jpg, webp, gif, mp4].map(sniffImage)).toEqual(['.png', '.jpg', '.webp', '.gif', null]);
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    // A PNG needs all eight signature bytes, a GIF its version.
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toBeNull();
    expect(sniffImage(Buffer.from('GIF8xa....', 'latin1'))).toBeNull();
  });

  it('needs ftyp at bytes 4–8 for mp4', () => {
    expect(isMp4(mp4)).toBe(true);
    expect(isMp4(jpg)).toBe(false);
    expect(isMp4(Buffer.from('ftyp0000isom', 'latin1'))).toBe(false);
  });

  it('sniffs any media kind, and names its MIME type', () => {
    expect([png, jpg, webp, gif, mp4, Buffer.from('hello world!')].map(sniffMedia)).toEqual([
      '.png',
      '.jpg',
      '.webp',
      '.gif',
      '.mp4',
      null,
    ]);
    expect(['.png', 'jpg', '.JPEG', 'webp', '.gif', 'mp4', '.txt', ''].map(mimeOf)).toEqual([
      'image/png',
      'image/jpeg',
      'image/jpeg',
      'image/webp',
      'image/gif',
      'video/mp4',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });

  it('caps uploads at 20 MB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(20 * 1024 * 1024);
  });
});
