// A stitched file decodes: Chromium's own H.264 decoder (WebCodecs) decodes every frame of what
// stitchVideos wrote, and its <video> reports the summed duration. The clips are the simulator's
// (real H.264 from its encoder); an overlap trimmed at the join takes its frames out of the count.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { useSimBrowser } from '@gflow/testkit/browser';
import { makeMp4 } from '@gflow/flow-sim';
import { createGflow } from '../src/index.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-stitch-decode-'));
// The kit's Chromium; WebCodecs needs a secure context, so the page is one of the simulator's
// https pages (nothing of Flow is used).
const kit = useSimBrowser();
type Page = Awaited<ReturnType<Awaited<ReturnType<typeof kit.browser>>['newPage']>>;
let page: Page;

beforeAll(async () => {
  const context = await (await kit.browser()).newContext({ ...kit.sim.contextOptions });
  page = await context.newPage();
  await page.goto('https://flow.google.com/about');
}, 60_000);

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

/** The packets of an MP4 (demuxed in Node) and its decoder configuration, as the page's decoder takes them. */
async function packetsOf(file: string) {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
  const track = (await input.getPrimaryVideoTrack())!;
  const config = (await track.getDecoderConfig())!;
  const chunks: { b64: string; key: boolean; timestamp: number; duration: number }[] = [];
  for await (const p of new EncodedPacketSink(track).packets())
    chunks.push({
      b64: Buffer.from(p.data).toString('base64'),
      key: p.type === 'key',
      timestamp: p.timestamp,
      duration: p.duration,
    });
  const raw = config.description as Uint8Array;
  const description = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
  input.dispose();
  return { codec: config.codec, description, chunks };
}

/** Decodes every packet with WebCodecs (Chromium's H.264 decoder) and loads the file in a <video>. */
const DECODE_IN_PAGE = `async ({ codec, description, chunks, b64 }) => {
  const bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const shown = [];
  let failure = null;
  const decoder = new VideoDecoder({
    output: (frame) => { shown.push(frame.timestamp); frame.close(); },
    error: (e) => { failure = String(e); },
  });
  decoder.configure({ codec, description: bytes(description), optimizeForLatency: true });
  for (const c of chunks)
    decoder.decode(new EncodedVideoChunk({ type: c.key ? 'key' : 'delta', timestamp: Math.round(c.timestamp * 1e6), duration: Math.round(c.duration * 1e6), data: bytes(c.b64) }));
  await decoder.flush();
  const video = document.createElement('video');
  video.muted = true;
  const duration = await new Promise((resolve) => {
    video.addEventListener('loadedmetadata', () => resolve(video.duration), { once: true });
    video.addEventListener('error', () => resolve(-1), { once: true });
    video.src = URL.createObjectURL(new Blob([bytes(b64)], { type: 'video/mp4' }));
  });
  return { failure, frames: shown.length, last: shown[shown.length - 1] / 1e6, duration };
}`;

async function decode(
  file: string,
): Promise<{ failure: string | null; frames: number; last: number; duration: number }> {
  const arg = JSON.stringify({ ...(await packetsOf(file)), b64: fs.readFileSync(file).toString('base64') });
  return (await page.evaluate(`(${DECODE_IN_PAGE})(${arg})`)) as {
    failure: string | null;
    frames: number;
    last: number;
    duration: number;
  };
}

function clip(name: string, seconds: number): string {
  const file = path.join(home, name);
  fs.writeFileSync(file, makeMp4({ width: 320, height: 180, seconds, key: name, prompt: 'a slow pan to the right' }));
  return file;
}

describe('a stitched video decodes', { timeout: 60_000 }, () => {
  it('a 8 s and a 7 s clip: every one of the 360 frames decodes and the video lasts 15 s; with 1 s trimmed, 336 frames and 14 s', async () => {
    const gflow = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: home } });
    try {
      const a = clip('a.mp4', 8);
      const b = clip('b.mp4', 7);
      const whole = path.join(home, 'ab.mp4');
      await gflow.run('stitchVideos', { inputs: [a, b], output: whole });
      const decoded = await decode(whole);
      expect(decoded.failure).toBeNull();
      expect(decoded.frames).toBe(360);
      expect(decoded.last).toBeCloseTo(15 - 1 / 24, 3);
      expect(decoded.duration).toBeCloseTo(15, 2);
      const trimmed = path.join(home, 'a-b.mp4');
      await gflow.run('stitchVideos', { inputs: [a, b], output: trimmed, overlap: 1 });
      const cut = await decode(trimmed);
      expect(cut).toMatchObject({ failure: null, frames: 336 });
      expect(cut.duration).toBeCloseTo(14, 2);
    } finally {
      await gflow.close();
    }
  });
});
