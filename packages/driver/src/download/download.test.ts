import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { downloadMedia } from './download.js';

const MP4 = Buffer.from('\0\0\0\x18ftypisom0000', 'latin1');
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const A = 'https://flow-content.google/video/a?Signature=x';
const B = 'https://flow-content.google/image/b?Signature=y';

type Answer = Error | { status: number; body: Buffer };

function fakeRequest(answers: Record<string, Answer[]>): {
  request: APIRequestContext;
  calls: Array<{ url: string; maxRedirects: number | undefined }>;
} {
  const calls: Array<{ url: string; maxRedirects: number | undefined }> = [];
  const request = {
    async get(url: string, options?: { maxRedirects?: number }) {
      calls.push({ url, maxRedirects: options?.maxRedirects });
      const next = answers[url]?.shift();
      if (next === undefined) throw new Error(`unexpected ${url}`);
      if (next instanceof Error) throw next;
      return { status: () => next.status, body: async () => next.body, dispose: async () => undefined };
    },
  };
  return { request: request as unknown as APIRequestContext, calls };
}

describe('downloadMedia', () => {
  it('fetches a video with maxRedirects 0 and checks ftyp', async () => {
    const { request, calls } = fakeRequest({ [A]: [{ status: 200, body: MP4 }] });
    const got = await downloadMedia(request, A, { kind: 'video' });
    expect(got.extension).toBe('.mp4');
    expect(calls[0]?.maxRedirects).toBe(0);
  });

  it('allows 2 redirects for images and refuses video bytes as an image', async () => {
    const { request, calls } = fakeRequest({ [A]: [{ status: 200, body: MP4 }] });
    await expect(downloadMedia(request, A, { kind: 'image' })).rejects.toMatchObject({ exitCode: 6 });
    expect(calls[0]?.maxRedirects).toBe(2);
  });

  it('tries the other URL slot when the bytes are the wrong kind (swapped slots)', async () => {
    const { request } = fakeRequest({ [A]: [{ status: 200, body: JPG }], [B]: [{ status: 200, body: MP4 }] });
    const got = await downloadMedia(request, A, { kind: 'video', fallbackUrl: B });
    expect(got.extension).toBe('.mp4');
    expect(got.source).toContain('/image/b');
  });

  it('retries a dropped transfer, then succeeds', async () => {
    const { request, calls } = fakeRequest({ [A]: [new Error('socket hang up'), { status: 200, body: MP4 }] });
    await downloadMedia(request, A, { kind: 'video' });
    expect(calls).toHaveLength(2);
  });

  it('gives up after the attempts with MediaDownloadError, not retryable, naming the media', async () => {
    const { request } = fakeRequest({ [A]: [new Error('reset'), new Error('reset'), new Error('reset')] });
    const error = await downloadMedia(request, A, { kind: 'video', mediaId: 'm-1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 6, extensions: { flow_media_id: 'm-1' } });
    expect(isRetryable(error)).toBe(false);
  });

  it('treats any status >= 300 as an error and never fetches a host off the allowlist', async () => {
    const { request, calls } = fakeRequest({ [A]: [{ status: 302, body: Buffer.alloc(0) }] });
    await expect(downloadMedia(request, A, { kind: 'video' })).rejects.toThrow(/HTTP 302/);
    await expect(downloadMedia(request, 'https://evil.example/x.mp4', { kind: 'video' })).rejects.toThrow(/allowlist/);
    await expect(downloadMedia(request, 'http://flow-content.google/x', { kind: 'video' })).rejects.toThrow(
      /allowlist/,
    );
    expect(calls).toHaveLength(1);
  });

  it('redacts signatures from error details', async () => {
    const { request } = fakeRequest({ [A]: [{ status: 403, body: Buffer.alloc(0) }] });
    const error = await downloadMedia(request, A, { kind: 'video' }).catch((e: unknown) => e);
    expect(String((error as Error).message)).not.toContain('Signature=x');
  });
});
