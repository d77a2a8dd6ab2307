import type { BrowserContext } from 'playwright-core';
import { MediaDownloadError } from '@gflow/errors';
import { isMp4 } from '@gflow/flow-facts';

/** The last frame of a clip, as Chromium's own decoder shows it. */
export interface LastFrame {
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
  /** The clip's duration (s). */
  readonly duration: number;
  /** The presented frame's media time (s), when the browser reports it. */
  readonly mediaTime: number | null;
}

/**
 * Runs in a blank page (a string, so no bundler helper can sneak in): the clip as a blob-backed
 * `<video>`, seeked to just before its end; once the compositor has that frame
 * (requestVideoFrameCallback) it is drawn to a canvas and returned as a PNG data URL.
 */
const LAST_FRAME_IN_PAGE = `async ({ b64, timeoutMs }) => {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'video/mp4' }));
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  document.body.append(video);
  const failed = () => 'the browser cannot decode it (' + (video.error ? video.error.code + ' ' + video.error.message : 'no detail') + ')';
  try {
    const meta = await new Promise((resolve) => {
      video.addEventListener('loadedmetadata', () => resolve(null), { once: true });
      video.addEventListener('error', () => resolve(failed()), { once: true });
      video.src = url;
    });
    if (meta !== null) return { error: meta };
    if (!(video.duration > 0) || !video.videoWidth) return { error: 'the clip has no video frames' };
    const target = Math.max(0, video.duration - 0.01);
    const seeked = await new Promise((resolve) => {
      video.addEventListener('seeked', () => resolve(null), { once: true });
      video.addEventListener('error', () => resolve(failed()), { once: true });
      video.currentTime = target;
    });
    if (seeked !== null) return { error: seeked };
    // The frame presented after the seek (a callback registered earlier can report the first
    // frame's presentation on a busy machine): wait for one near the end, else the timeout.
    let mediaTime = null;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const t = await Promise.race([
        new Promise((resolve) => video.requestVideoFrameCallback((now, info) => resolve(info.mediaTime))),
        new Promise((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (t === null) break;
      mediaTime = t;
      if (t >= target - 0.5) break;
    }
    if (video.readyState < 2) return { error: 'no frame at ' + target.toFixed(3) + ' s' };
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
    return {
      png: canvas.toDataURL('image/png'),
      width: canvas.width,
      height: canvas.height,
      duration: video.duration,
      mediaTime,
    };
  } finally {
    video.remove();
    URL.revokeObjectURL(url);
  }
}`;

/**
 * Takes a clip's last frame with the browser gflow already drives (docs/ARCHITECTURE.md "Chains":
 * no decoder binary to ship, and the same H.264 decoder Flow's own page uses). A blank page of
 * the session's context; nothing leaves the machine.
 */
export async function lastFrameOf(context: BrowserContext, mp4: Uint8Array): Promise<LastFrame> {
  if (!isMp4(Buffer.from(mp4.buffer, mp4.byteOffset, mp4.byteLength)))
    throw new MediaDownloadError('The clip is not an MP4, so its last frame cannot be taken.');
  const page = await context.newPage();
  try {
    const arg = JSON.stringify({ b64: Buffer.from(mp4).toString('base64'), timeoutMs: 5_000 });
    const out = (await page.evaluate(`(${LAST_FRAME_IN_PAGE})(${arg})`)) as
      { error: string } | { png: string; width: number; height: number; duration: number; mediaTime: number | null };
    if ('error' in out) throw new MediaDownloadError(`Could not take the clip's last frame: ${out.error}.`);
    return {
      png: Buffer.from(out.png.slice(out.png.indexOf(',') + 1), 'base64'),
      width: out.width,
      height: out.height,
      duration: out.duration,
      mediaTime: out.mediaTime,
    };
  } finally {
    await page.close().catch(() => undefined);
  }
}
