import type { Page, Request } from 'playwright-core';
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
 * Fetches a signed media URL from inside a Flow page, as Flow's own download does
 * (`fetch(url, {credentials: 'omit'})`), and reads the bytes from the browser's response. It goes
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
    const response = page.waitForResponse((r) => r.request().resourceType() === 'fetch' && chainHas(r.request(), url), { timeout: 120_000 }).catch(() => null);
    const outcome = await page
      .evaluate(
        async ({ target, redirect }) => {
          try {
            const res = await fetch(target, { credentials: 'omit', redirect, cache: 'no-store' });
            await res.arrayBuffer();
            return { status: res.status, error: null as string | null };
          } catch (error) {
            return { status: 0, error: String(error) };
          }
        },
        { target: url, redirect: options.kind === 'video' ? ('error' as const) : ('follow' as const) },
      )
      .catch((error: unknown) => ({ status: 0, error: String(error) }));
    const seen = await response;
    if (outcome.error !== null || seen === null) {
      last = outcome.error ?? 'the browser saw no response';
      if (attempt < attempts) await sleep(400 * attempt, options.signal);
      continue;
    }
    if (outcome.status >= 300) throw new MediaDownloadError(`Downloading ${safe} answered HTTP ${outcome.status}.`, { extensions, retryable: outcome.status >= 500 });
    const bytes = await seen.body();
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

/** Whether a request, or one it was redirected from, asked for `url`. */
function chainHas(request: Request, url: string): boolean {
  for (let r: Request | null = request; r !== null; r = r.redirectedFrom()) if (r.url() === url) return true;
  return false;
}
