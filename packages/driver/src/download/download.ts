import type { APIRequestContext } from 'playwright-core';
import { MediaDownloadError, redactText } from '@gflow/errors';
import { sleep, throwIfAborted } from '../util/abort.js';
import { type DriverLogger, SILENT_LOGGER } from '../util/logger.js';
import { isAllowedMediaUrl } from './allowlist.js';
import { type MediaExtension, isMp4, sniffImage } from '@gflow/flow-facts';

export interface DownloadOptions {
  readonly kind: 'image' | 'video';
  /** The record's other URL slot, tried when the bytes are the wrong kind (slots were once swapped). */
  readonly fallbackUrl?: string | null;
  /** The byte size Flow reports; a difference is only logged (flow-wire §3a). */
  readonly expectedBytes?: number | null;
  readonly attempts?: number;
  readonly signal?: AbortSignal;
  readonly logger?: DriverLogger;
  /** Identifies the media in error extensions (`flow_media_id`). */
  readonly mediaId?: string;
}

export interface DownloadedMedia {
  readonly bytes: Buffer;
  readonly extension: MediaExtension;
  /** The URL the bytes came from (redacted). */
  readonly source: string;
}

class WrongKind extends Error {}

/**
 * Fetches a signed media URL through the browser context (`maxRedirects: 0`, images 2): host
 * allowlist, any status ≥300 is an error, magic bytes verified, a dropped transfer retried a few
 * times, then MediaDownloadError (not retryable: the media exists and was billed).
 */
export async function downloadMedia(
  request: APIRequestContext,
  url: string,
  options: DownloadOptions,
): Promise<DownloadedMedia> {
  const logger = options.logger ?? SILENT_LOGGER;
  const extensions = options.mediaId === undefined ? {} : { flow_media_id: options.mediaId };
  const candidates = [url, ...(options.fallbackUrl ? [options.fallbackUrl] : [])];
  let lastWrongKind: string | null = null;
  for (const candidate of candidates) {
    if (!isAllowedMediaUrl(candidate)) {
      throw new MediaDownloadError(
        `Refused to download from ${redactText(candidate)}: not an https URL on Flow's media host allowlist.`,
        { extensions },
      );
    }
    try {
      return await fetchVerified(request, candidate, options, logger);
    } catch (error) {
      if (error instanceof WrongKind) {
        lastWrongKind = error.message;
        logger.warn('download: wrong media kind, trying the other URL slot', { url: redactText(candidate) });
        continue;
      }
      if (error instanceof MediaDownloadError) throw withExtensions(error, extensions);
      throw error;
    }
  }
  throw new MediaDownloadError(
    `The downloaded bytes are not ${options.kind === 'video' ? 'an MP4 video' : 'an image'}: ${lastWrongKind ?? 'unknown content'}.`,
    { extensions },
  );
}

function withExtensions(error: MediaDownloadError, extensions: Record<string, unknown>): MediaDownloadError {
  if (Object.keys(extensions).length === 0) return error;
  return new MediaDownloadError(error.detail, {
    cause: error.cause,
    extensions: { ...error.extensions, ...extensions },
  });
}

async function fetchVerified(
  request: APIRequestContext,
  url: string,
  options: DownloadOptions,
  logger: DriverLogger,
): Promise<DownloadedMedia> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const safe = redactText(url);
  let lastError: unknown = null;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    throwIfAborted(options.signal, 'the download');
    let bytes: Buffer;
    try {
      const response = await request.get(url, {
        maxRedirects: options.kind === 'image' ? 2 : 0,
        timeout: 120_000,
        failOnStatusCode: false,
      });
      const status = response.status();
      if (status >= 500 && attempt < attempts) {
        lastError = new Error(`HTTP ${status}`);
        await response.dispose();
        // A backoff, not a wait for state: nothing says when a failing server will answer again.
        await sleep(500 * attempt, options.signal);
        continue;
      }
      if (status >= 300) {
        await response.dispose();
        throw new MediaDownloadError(`Downloading ${safe} answered HTTP ${status}.`);
      }
      bytes = await response.body();
      await response.dispose();
    } catch (error) {
      if (error instanceof MediaDownloadError) throw error;
      lastError = error;
      logger.warn('download: transfer failed', {
        attempt,
        url: safe,
        error: error instanceof Error ? error.message : String(error),
      });
      // A backoff, as above: a dropped transfer gives no sign of when to try again.
      if (attempt < attempts) await sleep(500 * attempt, options.signal);
      continue;
    }
    const extension = verify(bytes, options.kind);
    logSizeMismatch(logger, options.expectedBytes, bytes.length);
    return { bytes, extension, source: safe };
  }
  throw new MediaDownloadError(`The transfer of ${safe} dropped ${attempts} times.`, { cause: lastError });
}

/**
 * SIZE RULE, for every download path (generation, by media id, upscales): a byte count that
 * differs from the size Flow's record reports is logged, never refused. The integrity checks are
 * the host allowlist, the magic bytes and the transfer itself (a dropped connection fails the
 * fetch and is retried). Flow's size is a record field next to URL slots that were once swapped
 * (flow-captures.md §3), and the original project only logs it too (§9).
 */
export function logSizeMismatch(logger: DriverLogger, expected: number | null | undefined, actual: number): void {
  if (expected != null && expected !== actual)
    logger.warn('download: byte size differs from the size Flow reported', { expected, actual });
}

function verify(bytes: Buffer, kind: 'image' | 'video'): MediaExtension {
  if (kind === 'video') {
    if (isMp4(bytes)) return '.mp4';
    throw new WrongKind(
      `${bytes.length} bytes${sniffImage(bytes) === null ? '' : ` of ${sniffImage(bytes)} image`}, no ftyp box at byte 4`,
    );
  }
  if (isMp4(bytes)) throw new WrongKind(`${bytes.length} bytes of video where an image was expected`);
  const ext = sniffImage(bytes);
  if (ext === null) throw new WrongKind(`${bytes.length} bytes that are not PNG/JPEG/WebP/GIF`);
  return ext;
}
