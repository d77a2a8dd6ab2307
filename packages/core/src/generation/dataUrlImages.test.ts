// Inline images (issue 43 item 2): a data URL where a path or media id is accepted is checked
// before it is decoded, sniffed after, and stored once by its SHA-256; URLs are never fetched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_DATA_URL_CHARS, localImageOf, storeDataUrl, withLocalImages } from './dataUrlImages.js';
import { generateVideoInput } from './schemas.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-inline-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

describe('images sent inline as data URLs', () => {
  it('are stored once by their SHA-256, with the extension their bytes have', () => {
    const first = storeDataUrl(dataUrl('image/png', PNG), 'initial_frame', dir);
    expect(path.basename(first)).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(fs.readFileSync(first)).toEqual(PNG);
    expect(storeDataUrl(dataUrl('image/png', PNG), 'reference_images[1]', dir)).toBe(first);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.png'))).toHaveLength(1);
    expect(path.extname(storeDataUrl(dataUrl('image/jpeg', JPEG), 'x', dir))).toBe('.jpg');
  });

  it('refuse, naming the parameter, a type that is not an image, bytes that are not the type, no bytes, and more than 20 MB', () => {
    const refusal = (value: string) => {
      try {
        storeDataUrl(value, 'initial_frame', dir);
      } catch (error) {
        return error as { code: string; detail: string; extensions: { parameter: string } };
      }
      throw new Error('not refused');
    };
    expect(refusal(dataUrl('image/svg+xml', PNG))).toMatchObject({
      code: 'bad-parameter',
      extensions: { parameter: 'initial_frame' },
    });
    expect(refusal(dataUrl('image/png', JPEG)).detail).toMatch(/says image\/png, but its bytes are \.jpg/);
    expect(refusal(dataUrl('image/png', Buffer.from('not an image at all'))).detail).toMatch(/not an image/);
    expect(refusal('data:image/png;base64,').detail).toMatch(/no bytes/);
    expect(refusal('data:image/png,89504e47').detail).toMatch(/base64/);
    // Refused on its length, before anything is decoded.
    expect(refusal(`data:image/png;base64,${'A'.repeat(MAX_DATA_URL_CHARS)}`).detail).toMatch(/20 MB/);
  });

  it('URLs are never fetched; paths and media ids pass through as given', () => {
    expect(() => localImageOf('https://example.com/cat.png', 'reference_images[0]', dir)).toThrow(
      /does not fetch images from URLs/,
    );
    expect(() => localImageOf('HTTP://10.0.0.1/x.png', 'initial_frame', dir)).toThrow(/data URL/);
    expect(localImageOf('/tmp/frame.png', 'initial_frame', dir)).toBe('/tmp/frame.png');
    expect(localImageOf('0a1b2c3d-0000-4000-8000-000000000001', 'initial_frame', dir)).toBe(
      '0a1b2c3d-0000-4000-8000-000000000001',
    );
  });

  it("a request's frames and references: data URLs become files, the rest is left as it was", () => {
    const input = generateVideoInput.parse({
      prompt: 'go',
      mode: 'r2v',
      reference_images: [dataUrl('image/png', PNG), '0a1b2c3d-0000-4000-8000-000000000001'],
    });
    const stored = withLocalImages(input, dir);
    expect(stored.reference_images?.[0]).toMatch(/[0-9a-f]{64}\.png$/);
    expect(stored.reference_images?.[1]).toBe('0a1b2c3d-0000-4000-8000-000000000001');
    expect(stored.prompt).toBe('go');
    // The schema takes a data URL longer than a path may be, and no path longer than 4096.
    expect(
      generateVideoInput.safeParse({ prompt: 'go', initial_frame: dataUrl('image/png', Buffer.alloc(8000)) }).success,
    ).toBe(true);
    expect(generateVideoInput.safeParse({ prompt: 'go', initial_frame: `/${'a'.repeat(5000)}` }).success).toBe(false);
  });
});
