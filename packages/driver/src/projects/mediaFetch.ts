import type { Page } from 'playwright-core';
import { MediaDownloadError, redactText } from '@gflow/errors';
import { isAllowedMediaUrl } from '../download/allowlist.js';
import { logSizeMismatch } from '../download/download.js';
import { type MediaExtension, isMp4, sniffImage } from '@gflow/flow-facts';
import { sleep, throwIfAborted } from '../util/abort.js';
import { type DriverLogger, SILENT_LOGGER } from '../util/logger.js';

export interface MediaFetchOptions {
  readonly kind: 'image' | 'video';
  /** The record's other URL slot (the slots were once swapped, flow-captures.md §3): tried when the bytes are the wrong kind. */
  readonly fallbackUrl?: string | null;
  /** The size Flow reports; a difference is logged, never refused (SIZE RULE in download/download.ts). */
  readonly expectedBytes?: number | null;
  readonly attempts?: number;
  readonly signal?: AbortSignal | undefined;
  readonly mediaId?: string;
  readonly logger?: DriverLogger;
}

export interface FetchedMedia {
  readonly bytes: Buffer;
  readonly extension: MediaExtension;
}

class WrongKind extends Error {}

/**
 * Fetches a media URL from inside a Flow page and reads the bytes from the browser's response.
 * Credentials are `same-origin`, as the page's own `<img>` tiles load them: the signed CDN URLs
 * (flow-content.google) get no cookies, while a grid tile's `https://flow.google.com/asb/<token>`
 * (session-gated) gets the session's cookies. It goes through the browser's network stack
 * (proxy, host resolution), unlike Playwright's request API. Allowlisted https hosts only, also
 * after redirects: `/asb/` redirects an image to the CDN and a video to `*.googlevideo.com`
 * (flow-captures.md §2), and the final URL must be on the allowlist too. A dropped transfer is
 * retried; the bytes must be the right kind (magic bytes), else the record's other URL slot is
 * tried (§3).
 */
export async function fetchMediaInPage(page: Page, url: string, options: MediaFetchOptions): Promise<FetchedMedia> {
  const candidates = [url, ...(options.fallbackUrl ? [options.fallbackUrl] : [])];
  let wrongKind = '';
  for (const candidate of candidates) {
    try {
      return await fetchOne(page, candidate, options);
    } catch (error) {
      if (!(error instanceof WrongKind)) throw error;
      wrongKind = error.message;
      (options.logger ?? SILENT_LOGGER).warn('download: wrong media kind, trying the other URL slot', {
        url: redactText(candidate),
      });
    }
  }
  const extensions = options.mediaId === undefined ? {} : { flow_media_id: options.mediaId };
  throw new MediaDownloadError(wrongKind, { extensions });
}

async function fetchOne(page: Page, url: string, options: MediaFetchOptions): Promise<FetchedMedia> {
  const extensions = options.mediaId === undefined ? {} : { flow_media_id: options.mediaId };
  const safe = redactText(url);
  if (!isAllowedMediaUrl(url))
    throw new MediaDownloadError(`Refused to download from ${safe}: not an https URL on Flow's media host allowlist.`, {
      extensions,
    });
  const attempts = Math.max(1, options.attempts ?? 3);
  let last = 'no attempt';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    throwIfAborted(options.signal, 'the download');
    // The bytes come back from the page itself (base64): reading them later from the observed
    // response is unreliable, Chromium may already have dropped a media body (0 bytes).
    const outcome = await page
      .evaluate(async (target) => {
        try {
          const res = await fetch(target, { credentials: 'same-origin', redirect: 'follow', cache: 'no-store' });
          const buffer = new Uint8Array(await res.arrayBuffer());
          let binary = '';
          for (let i = 0; i < buffer.length; i += 0x8000)
            binary += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
          return { status: res.status, finalUrl: res.url, error: null as string | null, data: btoa(binary) };
        } catch (error) {
          return { status: 0, finalUrl: '', error: String(error), data: '' };
        }
      }, url)
      .catch((error: unknown) => ({ status: 0, finalUrl: '', error: String(error), data: '' }));
    if (outcome.error !== null) {
      last = outcome.error;
      // A backoff, not a wait for state: nothing says when a failed transfer may be tried again.
      if (attempt < attempts) await sleep(400 * attempt, options.signal);
      continue;
    }
    if (outcome.finalUrl !== '' && !isAllowedMediaUrl(outcome.finalUrl)) {
      throw new MediaDownloadError(
        `Downloading ${safe} was redirected to ${redactText(outcome.finalUrl)}, which is not on Flow's media host allowlist; nothing was saved.`,
        { extensions },
      );
    }
    if (outcome.status >= 300)
      throw new MediaDownloadError(`Downloading ${safe} answered HTTP ${outcome.status}.`, {
        extensions,
        retryable: outcome.status >= 500,
      });
    const bytes = Buffer.from(outcome.data, 'base64');
    const extension =
      options.kind === 'video' ? (isMp4(bytes) ? '.mp4' : null) : isMp4(bytes) ? null : sniffImage(bytes);
    if (extension === null)
      throw new WrongKind(
        `The ${bytes.length} bytes from ${safe} are not ${options.kind === 'video' ? 'an MP4 video' : 'an image'}.`,
      );
    logSizeMismatch(options.logger ?? SILENT_LOGGER, options.expectedBytes, bytes.length);
    return { bytes, extension };
  }
  throw new MediaDownloadError(`The transfer of ${safe} dropped ${attempts} times (${last.split('\n')[0] ?? last}).`, {
    extensions,
    retryable: true,
  });
}
