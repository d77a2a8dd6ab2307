import { type Browser, chromium } from 'playwright-core';
import { BrowserEngineUnavailableError, FrameExtractionError } from '@gflow/errors';
import { BASE_ARGS, ROOT_LINUX_ARGS, currentHostFacts } from '../session/launchOptions.js';

/** A small JPEG of a picture or of a clip's poster frame. */
export interface Thumbnail {
  readonly jpeg: Buffer;
  readonly width: number;
  readonly height: number;
}

/** A headless browser with no profile and no network, that turns media bytes into thumbnails. */
export interface MediaRenderer {
  /** The picture (image) or a frame near the start of the clip (video), scaled so its longer edge is at most `maxEdge`. */
  thumbnail(bytes: Uint8Array, kind: 'image' | 'video', maxEdge: number): Promise<Thumbnail>;
  close(): Promise<void>;
}

export interface MediaRendererOptions {
  readonly executablePath?: string;
  readonly channel?: 'chrome';
  readonly extraArgs?: readonly string[];
}

/**
 * Runs in a blank page (a string, so no bundler helper can sneak in): the bytes as a blob-backed
 * `<img>` or `<video>` (seeked to a frame a little into the clip, as a poster), drawn scaled to a
 * canvas and returned as a JPEG data URL.
 */
const THUMBNAIL_IN_PAGE = `async ({ b64, kind, maxEdge, timeoutMs }) => {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: kind === 'video' ? 'video/mp4' : 'application/octet-stream' }));
  const timeout = (what) => new Promise((resolve) => setTimeout(() => resolve(what + ' took over ' + timeoutMs + ' ms'), timeoutMs));
  let source;
  let width;
  let height;
  try {
    if (kind === 'video') {
      const video = document.createElement('video');
      video.muted = true;
      video.preload = 'auto';
      const failed = () => 'the browser cannot decode it (' + (video.error ? video.error.code + ' ' + video.error.message : 'no detail') + ')';
      const meta = await Promise.race([
        new Promise((resolve) => {
          video.addEventListener('loadedmetadata', () => resolve(null), { once: true });
          video.addEventListener('error', () => resolve(failed()), { once: true });
          video.src = url;
        }),
        timeout('loading the clip'),
      ]);
      if (meta !== null) return { error: meta };
      if (!(video.duration > 0) || !video.videoWidth) return { error: 'the clip has no video frames' };
      const seeked = await Promise.race([
        new Promise((resolve) => {
          video.addEventListener('seeked', () => resolve(null), { once: true });
          video.addEventListener('error', () => resolve(failed()), { once: true });
          video.currentTime = Math.min(1, video.duration / 4);
        }),
        timeout('seeking'),
      ]);
      if (seeked !== null) return { error: seeked };
      if (video.readyState < 2) return { error: 'no frame after the seek' };
      source = video;
      width = video.videoWidth;
      height = video.videoHeight;
    } else {
      const image = new Image();
      const loaded = await Promise.race([
        new Promise((resolve) => {
          image.onload = () => resolve(null);
          image.onerror = () => resolve('the browser cannot decode it');
          image.src = url;
        }),
        timeout('loading the picture'),
      ]);
      if (loaded !== null) return { error: loaded };
      source = image;
      width = image.naturalWidth;
      height = image.naturalHeight;
    }
    if (!width || !height) return { error: 'it has no pixels' };
    const scale = Math.min(1, maxEdge / Math.max(width, height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
    return { jpeg: canvas.toDataURL('image/jpeg', 0.82), width: canvas.width, height: canvas.height };
  } finally {
    URL.revokeObjectURL(url);
  }
}`;

/**
 * Launches the renderer: the browser gflow already uses (no image library or decoder binary to
 * ship; the same decoders the gallery's page will use), headless, without a profile, offline.
 */
export async function openMediaRenderer(options: MediaRendererOptions): Promise<MediaRenderer> {
  const host = currentHostFacts();
  const asRootOnLinux = host.platform === 'linux' && host.uid === 0;
  let browser: Browser;
  try {
    browser = await chromium.launch({
      headless: true,
      ...(options.channel ? { channel: options.channel } : {}),
      ...(options.executablePath && !options.channel ? { executablePath: options.executablePath } : {}),
      args: [...new Set([...BASE_ARGS, ...(asRootOnLinux ? ROOT_LINUX_ARGS : []), ...(options.extraArgs ?? [])])],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    throw new BrowserEngineUnavailableError('The browser for thumbnails could not be started.', { cause: error });
  }
  const context = await browser.newContext({ offline: true, acceptDownloads: false });
  return {
    async thumbnail(bytes, kind, maxEdge) {
      const page = await context.newPage();
      try {
        const arg = JSON.stringify({ b64: Buffer.from(bytes).toString('base64'), kind, maxEdge, timeoutMs: 10_000 });
        const out = (await page.evaluate(`(${THUMBNAIL_IN_PAGE})(${arg})`)) as
          { error: string } | { jpeg: string; width: number; height: number };
        if ('error' in out)
          throw new FrameExtractionError(`Could not make a thumbnail: ${out.error}.`, {
            remediationHint: 'The file itself is unchanged; open it directly, or check that the browser can play it.',
          });
        return {
          jpeg: Buffer.from(out.jpeg.slice(out.jpeg.indexOf(',') + 1), 'base64'),
          width: out.width,
          height: out.height,
        };
      } finally {
        await page.close().catch(() => undefined);
      }
    },
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}
