import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fetchMediaInPage } from './mediaFetch.js';

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(16)]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

/** A page whose in-page fetch answers from a table: url → what the browser saw (final URL after redirects). */
function fakePage(answers: Record<string, { finalUrl: string; bytes: Buffer; status?: number }>): {
  page: Page;
  asked: string[];
} {
  const asked: string[] = [];
  const page = {
    evaluate: async (_fn: unknown, url: string) => {
      asked.push(url);
      const a = answers[url];
      if (a === undefined) return { status: 0, finalUrl: '', error: 'TypeError: Failed to fetch', data: '' };
      return { status: a.status ?? 200, finalUrl: a.finalUrl, error: null, data: a.bytes.toString('base64') };
    },
  } as unknown as Page;
  return { page, asked };
}

describe('fetchMediaInPage', () => {
  it('follows an /asb/ redirect to googlevideo and keeps the bytes (flow-captures.md §2)', async () => {
    const { page } = fakePage({
      'https://flow.google.com/asb/CAEabc=v': {
        finalUrl: 'https://rr3---sn-x.googlevideo.com/videoplayback/1',
        bytes: MP4,
      },
    });
    await expect(
      fetchMediaInPage(page, 'https://flow.google.com/asb/CAEabc=v', { kind: 'video' }),
    ).resolves.toMatchObject({ extension: '.mp4' });
  });

  it('refuses bytes whose redirect ended off the allowlist', async () => {
    const { page } = fakePage({
      'https://flow.google.com/asb/CAEabc=v': { finalUrl: 'https://media.example.com/clip.mp4', bytes: MP4 },
    });
    await expect(
      fetchMediaInPage(page, 'https://flow.google.com/asb/CAEabc=v', { kind: 'video' }),
    ).rejects.toMatchObject({ code: 'media-download', message: expect.stringContaining('not on') });
  });

  it("tries the record's other URL slot when the bytes are the wrong kind (flow-captures.md §3)", async () => {
    const mp4Slot = 'https://flow-content.google/video/1?Signature=a';
    const posterSlot = 'https://flow-content.google/image/1?Signature=b';
    const { page, asked } = fakePage({
      [mp4Slot]: { finalUrl: mp4Slot, bytes: JPEG },
      [posterSlot]: { finalUrl: posterSlot, bytes: MP4 },
    });
    await expect(fetchMediaInPage(page, mp4Slot, { kind: 'video', fallbackUrl: posterSlot })).resolves.toMatchObject({
      extension: '.mp4',
    });
    expect(asked).toEqual([mp4Slot, posterSlot]);
  });

  it("logs a byte size that differs from Flow's record and keeps the file (the one size rule)", async () => {
    const url = 'https://flow-content.google/video/1?Signature=a';
    const { page } = fakePage({ [url]: { finalUrl: url, bytes: MP4 } });
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (m: string) => void warnings.push(m),
    };
    await expect(
      fetchMediaInPage(page, url, { kind: 'video', expectedBytes: MP4.length + 5, logger }),
    ).resolves.toMatchObject({ extension: '.mp4' });
    expect(warnings).toEqual(['download: byte size differs from the size Flow reported']);
  });
});
