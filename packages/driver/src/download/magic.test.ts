import { describe, expect, it } from 'vitest';
import { isAllowedMediaUrl } from './allowlist.js';
import { isMp4, sniffImage } from '@gflow/flow-facts';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const webp = Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1');
const gif = Buffer.from('GIF89a....', 'latin1');
const mp4 = Buffer.from('\0\0\0\x18ftypisom', 'latin1');

describe('magic bytes', () => {
  it('sniffs images', () => {
    expect(sniffImage(png)).toBe('.png');
    expect(sniffImage(jpg)).toBe('.jpg');
    expect(sniffImage(webp)).toBe('.webp');
    expect(sniffImage(gif)).toBe('.gif');
    expect(sniffImage(mp4)).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
  it('needs ftyp at bytes 4–8 for mp4', () => {
    expect(isMp4(mp4)).toBe(true);
    expect(isMp4(jpg)).toBe(false);
    expect(isMp4(Buffer.from('ftyp0000isom', 'latin1'))).toBe(false);
  });
});

describe('media host allowlist', () => {
  it.each([
    ['https://flow-content.google/video/x?Signature=1', true],
    ['https://lh3.googleusercontent.com/x', true],
    ['https://storage.googleapis.com/x', true],
    ['https://flow.google.com/asb/x', true],
    ['https://labs.google/fx/x', true],
    ['http://flow-content.google/video/x', false],
    ['https://flow-content.google.evil.test/x', false],
    ['https://evilgoogle.com/x', false],
    ['https://user:pw@flow-content.google/x', false],
    ['file:///etc/passwd', false],
    ['garbage', false],
  ])('%s → %s', (url, ok) => {
    expect(isAllowedMediaUrl(url)).toBe(ok);
  });
});
