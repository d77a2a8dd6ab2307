import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeMp4, panOf } from '../src/media/mp4.js';
import type { Mp4Spec } from '../src/media/mp4.js';
import { panAt } from '../src/media/pan.js';
import { encodePng } from '../src/media/png.js';
import { decodePng } from '../src/media/pngDecode.js';
import type { Raster } from '../src/media/picture.js';
import { painterFor } from '../src/media/pixels.js';
import { openProject, pickSettings, submit, typePrompt, useSimBrowser } from './harness.js';

/**
 * The sandbox's clips play: Chromium's own H.264 decoder opens the simulator's MP4s, reports their
 * duration and size, and its frames are the encoded picture (first) and that picture panned the
 * way the clip's move predicts (later).
 */

const rig = useSimBrowser({ seed: 'playable-video' });

type Rgb = [number, number, number];

/**
 * Runs in the page (a string, so no bundler helper can sneak in): loads the clip from base64 or a
 * URL into a blob-backed <video>, waits for `loadedmetadata`, seeks to each time and draws the frame
 * to a canvas, returned as a PNG data URL with the presented frame's media time.
 */
const DECODE_IN_PAGE = `async ({ b64, src, times }) => {
  let url;
  if (b64 !== undefined) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
    url = URL.createObjectURL(new Blob([bytes], { type: 'video/mp4' }));
  } else {
    const res = await fetch(src);
    if (!res.ok) return { error: 'fetch ' + res.status };
    url = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'video/mp4' }));
  }
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  document.body.append(video);
  const failed = () => 'media error ' + (video.error ? video.error.code + ' ' + video.error.message : '?');
  const meta = await new Promise((resolve) => {
    video.addEventListener('loadedmetadata', () => resolve(null), { once: true });
    video.addEventListener('error', () => resolve(failed()), { once: true });
    video.src = url;
  });
  if (meta !== null) return { error: meta };
  const out = { duration: video.duration, width: video.videoWidth, height: video.videoHeight, frames: [] };
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  for (const t of times) {
    // drawImage right after 'seeked' may still see the frame before the seek: wait until the
    // compositor has the new one (requestVideoFrameCallback), and report which frame it is.
    let mediaTime = null;
    const shown = new Promise((resolve) => {
      video.requestVideoFrameCallback((now, meta) => {
        mediaTime = meta.mediaTime;
        resolve(null);
      });
    });
    const seeked = await new Promise((resolve) => {
      video.addEventListener('seeked', () => resolve(null), { once: true });
      video.addEventListener('error', () => resolve(failed()), { once: true });
      video.currentTime = t;
    });
    if (seeked !== null) return { error: seeked };
    await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (video.readyState < 2) return { error: 'no current frame after seeking to ' + t };
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    out.frames.push({ png: canvas.toDataURL('image/png'), mediaTime });
  }
  video.remove();
  URL.revokeObjectURL(url);
  return out;
}`;

interface Decoded {
  duration: number;
  width: number;
  height: number;
  frames: Raster[];
  /** The presented frame's timestamp per seek (requestVideoFrameCallback), null when none was reported. */
  mediaTimes: (number | null)[];
}

async function decodeInChromium(
  page: Page,
  source: { b64: string } | { src: string },
  times: number[],
): Promise<Decoded> {
  const arg = JSON.stringify({ ...source, times });
  const out = (await page.evaluate(`(${DECODE_IN_PAGE})(${arg})`)) as {
    error?: string;
    duration: number;
    width: number;
    height: number;
    frames: { png: string; mediaTime: number | null }[];
  };
  if (out.error !== undefined) throw new Error(out.error);
  const frames = out.frames.map(({ png }) => {
    const raster = decodePng(Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
    if (raster === undefined) throw new Error('canvas PNG not decodable');
    return raster;
  });
  return {
    duration: out.duration,
    width: out.width,
    height: out.height,
    frames,
    mediaTimes: out.frames.map((f) => f.mediaTime),
  };
}

function at(r: Raster, x: number, y: number): Rgb {
  const i = (y * r.width + x) * 3;
  return [r.rgb[i] ?? 0, r.rgb[i + 1] ?? 0, r.rgb[i + 2] ?? 0];
}

/** Mean absolute difference per channel over the points between two pictures. */
function meanDiff(
  points: [number, number][],
  a: (x: number, y: number) => Rgb,
  b: (x: number, y: number) => Rgb,
): number {
  let sum = 0;
  for (const [x, y] of points) {
    const p = a(x, y);
    const q = b(x, y);
    sum += Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]);
  }
  return sum / (points.length * 3);
}

/** Mean absolute error per channel over the points, between a decoded frame and what it should show. */
function mae(frame: Raster, points: [number, number][], expected: (x: number, y: number) => Rgb): number {
  return meanDiff(points, (x, y) => at(frame, x, y), expected);
}

/** A grid of sample points, `step` apart, offset by `offset`, inside width×height. */
function grid(width: number, height: number, step: number, offset: number): [number, number][] {
  const points: [number, number][] = [];
  for (let y = offset; y < height; y += step) for (let x = offset; x < width; x += step) points.push([x, y]);
  return points;
}

/** A picture of `block`-pixel squares in seeded colours: every pan shows. */
function blocks(width: number, height: number, block: number, seed: number): Raster {
  const rgb = new Uint8Array(width * height * 3);
  const colour = (bx: number, by: number): Rgb => {
    let s = (seed * 7919 + bx * 104729 + by * 15485863) >>> 0;
    const next = (): number => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return 24 + ((s >>> 16) % 208);
    };
    return [next(), next(), next()];
  };
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1)
      rgb.set(colour(Math.floor(x / block), Math.floor(y / block)), (y * width + x) * 3);
  return { width, height, rgb };
}

/** The source seen through the camera at displacement `d` (the decoder repeats the edge beyond it). */
function shifted(
  source: (x: number, y: number) => Rgb,
  width: number,
  height: number,
  d: { x: number; y: number },
): (x: number, y: number) => Rgb {
  return (x, y) => source(Math.min(Math.max(x + d.x, 0), width - 1), Math.min(Math.max(y + d.y, 0), height - 1));
}

/** Frame `i`'s middle, so a seek lands on it whatever the rounding. */
function timeOf(frame: number, fps = 24): number {
  return (frame + 0.5) / fps;
}

/** What the camera sees at frames 0, the middle and the last, against the decoded frames. */
function checkPan(
  decoded: Decoded,
  spec: Mp4Spec,
  source: (x: number, y: number) => Rgb,
  points: [number, number][],
): { first: number; middle: number; last: number; lastUnpanned: number; sourceMoves: number } {
  const frames = Math.round(spec.seconds * 24);
  const pan = panOf(spec);
  const [first, middle, last] = decoded.frames;
  if (first === undefined || middle === undefined || last === undefined) throw new Error('frames missing');
  // the frames drawn are the ones sought (0, the middle, the last) where Chromium reports them
  decoded.mediaTimes.forEach((t, i) => {
    if (t !== null) expect(Math.floor(t * 24 + 1e-3), `frame drawn for seek ${i}`).toBe([0, frames / 2, frames - 1][i]);
  });
  const view = (frame: number): ((x: number, y: number) => Rgb) =>
    shifted(source, spec.width, spec.height, panAt(pan, frames, frame));
  const errors = {
    first: mae(first, points, source),
    middle: mae(middle, points, view(frames / 2)),
    last: mae(last, points, view(frames - 1)),
    lastUnpanned: mae(last, points, source),
    // how far the panned view is from the unpanned one in the source itself
    sourceMoves: meanDiff(points, source, view(frames - 1)),
  };
  const report = JSON.stringify(errors);
  expect(errors.first, report).toBeLessThan(4);
  expect(errors.middle, report).toBeLessThan(4);
  expect(errors.last, report).toBeLessThan(4);
  // the last frame is not the first one: it moved the way the pan predicts
  expect(errors.sourceMoves, report).toBeGreaterThan(10);
  expect(errors.lastUnpanned, report).toBeGreaterThan(errors.sourceMoves / 2);
  expect(errors.lastUnpanned, report).toBeGreaterThan(3 * errors.last);
  return errors;
}

describe("playable sandbox videos: Chromium decodes the simulator's H.264", () => {
  it('640×360, 8 s, panning right: duration and size; the first frame is the picture, later frames pan it', async () => {
    const picture = blocks(640, 360, 40, 1);
    const spec: Mp4Spec = {
      width: 640,
      height: 360,
      seconds: 8,
      key: 'blocks',
      picture,
      prompt: 'the camera pans right',
    };
    expect(panOf(spec)).toEqual({ x: 80, y: 0 });
    const mp4 = makeMp4(spec);
    expect(mp4.length).toBeLessThan(1_000_000);
    const page = await (await rig.browser()).newPage();
    const decoded = await decodeInChromium(page, { b64: mp4.toString('base64') }, [0, timeOf(96), timeOf(191)]);
    expect(Math.abs(decoded.duration - 8)).toBeLessThan(0.1);
    expect([decoded.width, decoded.height]).toEqual([640, 360]);
    // block centres: away from the edges where 4:2:0 chroma blends two squares
    const errors = checkPan(decoded, spec, (x, y) => at(picture, x, y), grid(640, 360, 40, 20));
    expect(errors.lastUnpanned).toBeGreaterThan(20);
    await page.close();
  });

  it("1280×720 (the sim's default clip): the painting for its key, panned down-right as its prompt says", async () => {
    const spec: Mp4Spec = {
      width: 1280,
      height: 720,
      seconds: 8,
      key: 'playable-video:clip',
      prompt: 'drift right and down over the harbour',
    };
    expect(panOf(spec)).toEqual({ x: 160, y: 90 });
    const paint = painterFor(spec.key);
    const mp4 = makeMp4(spec);
    const page = await (await rig.browser()).newPage();
    const decoded = await decodeInChromium(page, { b64: mp4.toString('base64') }, [0, timeOf(96), timeOf(191)]);
    expect(Math.abs(decoded.duration - 8)).toBeLessThan(0.1);
    expect([decoded.width, decoded.height]).toEqual([1280, 720]);
    checkPan(decoded, spec, (x, y) => paint(x, y, 1280, 720), grid(1280, 720, 48, 8));
    await page.close();
  });

  it('i2v: a clip started from an uploaded PNG opens without error in the detail view and shows that PNG, scaled', async () => {
    const email = 'playable-i2v@example.com';
    rig.sim.scenario.createAccount({ email });
    rig.sim.scenario.updateAccount(email, { pickerCommit: 'confirm' });
    const project = rig.sim.scenario.createProject(email);
    const start = blocks(320, 180, 20, 2);
    const { mediaId } = rig.sim.scenario.addUpload(email, project.id, 'start-frame.png', encodePng(start));
    const { page, ctx } = await rig.signedInPage(email);
    rig.sim.scenario.setLatency(0.04);
    try {
      await openProject(page, project.id);
      await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }, { icon: 'crop_16_9' }]);
      await page.locator('flow-prompt-box button.empty-chip').first().click();
      await page
        .locator('flow-add-menu-popover-content button.asset-item[role=option]', { hasText: 'start-frame.png' })
        .click();
      await page.locator('button.detail-add-to-prompt-btn').click();
      await page.locator('flow-prompt-box button.chip-container:has(img)').waitFor();
      await typePrompt(page, 'the camera pans right across the tiles');
      await submit(page);
      await page.locator('flow-video-tile img[data-media-id]').waitFor({ timeout: 20_000 });
      expect(rig.sim.received.calls('eb1hJf')[0]?.inner).toContain(mediaId);
      // what a user does: open the clip; its <video> loads with no error
      await page.locator('flow-video-tile').first().click();
      const opened = (await page.evaluate(`new Promise((resolve) => {
        const v = document.querySelector('flow-asset-detail-view video');
        if (v === null) return resolve({ error: 'no video' });
        const done = () => resolve({ error: v.error ? v.error.code + ' ' + v.error.message : null, duration: v.duration, width: v.videoWidth, height: v.videoHeight, src: v.currentSrc });
        if (v.readyState >= 1 || v.error) return done();
        v.addEventListener('loadedmetadata', done, { once: true });
        v.addEventListener('error', done, { once: true });
      })`)) as { error: string | null; duration: number; width: number; height: number; src: string };
      expect(opened.error).toBeNull();
      expect(Math.abs(opened.duration - 8)).toBeLessThan(0.1);
      expect([opened.width, opened.height]).toEqual([1280, 720]);
      const decoded = await decodeInChromium(page, { src: opened.src }, [0, timeOf(96), timeOf(191)]);
      expect([decoded.width, decoded.height]).toEqual([1280, 720]);
      // the PNG scaled ×4 (nearest): its 20-px squares are 80 px in the clip
      const source = (x: number, y: number): Rgb => at(start, Math.floor(x / 4), Math.floor(y / 4));
      const spec: Mp4Spec = {
        width: 1280,
        height: 720,
        seconds: 8,
        key: 'i2v',
        prompt: 'the camera pans right across the tiles',
      };
      expect(panOf(spec)).toEqual({ x: 160, y: 0 });
      checkPan(decoded, spec, source, grid(1280, 720, 80, 40));
    } finally {
      rig.sim.scenario.setLatency('fast');
      await ctx.close();
    }
  });
});
