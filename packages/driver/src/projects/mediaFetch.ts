import type { Page } from 'playwright-core';
import { MediaDownloadError, redactText } from '@gflow/errors';
import { isAllowedMediaUrl } from '../download/allowlist.js';
import { type MediaExtension, isMp4, sniffImage } from '../download/magic.js';
import { sleep, throwIfAborted } from '../util/abort.js';

export interface MediaFetchOptions {
  readonly kind: 'image' | 'video';
  /** The size Flow reports; a different byte count is refused (retryable: fetch again). */
  readonly expectedBytes?: number | null;
  readonly attempts?: number;
  readonly signal?: AbortSignal | undefined;
  readonly mediaId?: string;
}

export interface FetchedMedia {
  readonly bytes: Buffer;
  readonly extension: MediaExtension;
}

/**
 * Fetches a media URL from inside a Flow page and reads the bytes from the browser's response.
 * Credentials are `same-origin`, as the page's own `<img>` tiles load them: the signed CDN URLs
 * (flow-content.google) get no cookies, while a grid tile's `https://flow.google.com/asb/<token>`
 * (session-gated; it redirects to the CDN) gets the session's cookies. It goes
 * through the browser's network stack (proxy, host resolution), unlike Playwright's request API.
 * Allowlisted https hosts only; a video gets no redirects, an image up to the browser's default.
 * A dropped transfer is retried; the bytes must be the right kind (magic bytes, part 1's checks)
 * and, when Flow reported one, the right size.
 */
export async function fetchMediaInPage(page: Page, url: string, options: MediaFetchOptions): Promise<FetchedMedia> {
  const extensions = options.mediaId === undefined ? {} : { flow_media_id: options.mediaId };
  const safe = redactText(url);
  if (!isAllowedMediaUrl(url)) throw new MediaDownloadError(`Refused to download from ${safe}: not an https URL on Flow's media host allowlist.`, { extensions });
  const attempts = Math.max(1, options.attempts ?? 3);
  let last = 'no attempt';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    throwIfAborted(options.signal, 'the download');
    // The bytes come back from the page itself (base64): reading them later from the observed
    // response is unreliable, Chromium may already have dropped a media body (0 bytes).
    const outcome = await page
      .evaluate(
        async ({ target, redirect }) => {
          try {
            const res = await fetch(target, { credentials: 'same-origin', redirect, cache: 'no-store' });
            const buffer = new Uint8Array(await res.arrayBuffer());
            let binary = '';
            for (let i = 0; i < buffer.length; i += 0x8000) binary += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
            return { status: res.status, error: null as string | null, data: btoa(binary) };
          } catch (error) {
            return { status: 0, error: String(error), data: '' };
          }
        },
        { target: url, redirect: options.kind === 'video' ? ('error' as const) : ('follow' as const) },
      )
      .catch((error: unknown) => ({ status: 0, error: String(error), data: '' }));
    if (outcome.error !== null) {
      last = outcome.error;
      if (attempt < attempts) await sleep(400 * attempt, options.signal);
      continue;
    }
    if (outcome.status >= 300) throw new MediaDownloadError(`Downloading ${safe} answered HTTP ${outcome.status}.`, { extensions, retryable: outcome.status >= 500 });
    const bytes = Buffer.from(outcome.data, 'base64');
    const extension = options.kind === 'video' ? (isMp4(bytes) ? '.mp4' : null) : isMp4(bytes) ? null : sniffImage(bytes);
    if (extension === null) throw new MediaDownloadError(`The ${bytes.length} bytes from ${safe} are not ${options.kind === 'video' ? 'an MP4 video' : 'an image'}.`, { extensions });
    if (options.expectedBytes != null && options.expectedBytes !== bytes.length) {
      throw new MediaDownloadError(`Flow reports ${options.expectedBytes} bytes for this media but ${bytes.length} arrived; nothing was saved.`, {
        extensions: { ...extensions, expected_bytes: options.expectedBytes, actual_bytes: bytes.length },
        retryable: true,
      });
    }
    return { bytes, extension };
  }
  throw new MediaDownloadError(`The transfer of ${safe} dropped ${attempts} times (${last.split('\n')[0] ?? last}).`, { extensions, retryable: true });
}
