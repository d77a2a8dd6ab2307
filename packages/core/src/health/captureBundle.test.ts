import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { CAPTURE_FILES, assertNothingPrivate, writeCaptureBundle } from './captureBundle.js';

describe('the capture bundle', () => {
  it.each([
    ['an email address', '<button data-x="ana@example.com">'],
    ['a signed URL', 'https://flow-content.google/image/x&Signature=abc'],
    ['a token', 'ya29.a0AfB_byC'],
    ['a cookie', 'SAPISID=abc/def'],
    ['a URL with a query', 'https://flow.google.com/x?authuser=0'],
    ['an id', '1b4e28ba-2fa1-11d2-883f-0016d3cca427'],
  ])('refuses text holding %s (exit 13)', (what, text) => {
    let error: unknown;
    try {
      assertNothingPrivate('anchors.json', `{"html":"${text}"}`);
    } catch (thrown) {
      error = thrown;
    }
    expect(exitCodeOf(error)).toBe(13);
    expect(String(error)).toContain(what);
  });

  it('lets masked anchors and shapes through', () => {
    expect(() =>
      assertNothingPrivate(
        'anchors.json',
        '<img src="https://flow-content.google/image/…" alt="…"><span>xxxxx 16:9</span><mat-icon>crop_16_9</mat-icon>',
      ),
    ).not.toThrow();
  });

  it('writes its files 0600, and nothing at all when one would leak', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-capture-'));
    const docs = { 'manifest.json': { a: 1 }, 'anchors.json': { b: 'xxxx' }, 'replies.json': { c: ['string:uuid'] } };
    expect(await writeCaptureBundle(dir, docs)).toEqual([...CAPTURE_FILES]);
    for (const file of CAPTURE_FILES) expect(fs.statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-capture-'));
    await expect(writeCaptureBundle(other, { ...docs, 'replies.json': { leak: 'ana@example.com' } })).rejects.toThrow(
      /email address/,
    );
    expect(fs.readdirSync(other)).toEqual([]);
  });
});
