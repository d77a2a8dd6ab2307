import { describe, expect, it } from 'vitest';
import type { Media } from '../state/library.js';
import { SimState } from '../state/simState.js';
import { mp4For } from './catalogMedia.js';
import { makeJpeg } from './jpeg.js';
import { makeMp4 } from './mp4.js';
import { coverScale, paintCover, toYuv420 } from './picture.js';
import { painterFor } from './pixels.js';
import { encodePng } from './png.js';
import { decodePng } from './pngDecode.js';

const NOW = 1_700_000_000_000;

function newState(): SimState {
  return new SimState({ seed: 'catalog-media', latency: 'fast', locale: 'en-US' });
}

function addVideo(state: SimState, extra: { startFrameId?: string; resolution?: string; prompt?: string } = {}): Media {
  return state.library.addMedia({
    projectId: 'p',
    owner: 'a@example.com',
    kind: 'video',
    name: 'clip',
    prompt: extra.prompt ?? 'waves at night',
    model: 'veo_3_1_i2v_lite',
    aspectIndex: 2,
    width: extra.resolution === '360p' ? 640 : 1280,
    height: extra.resolution === '360p' ? 360 : 720,
    seed: 1,
    createdAt: NOW,
    mimeType: 'video/mp4',
    hiddenForSearches: 0,
    video: {
      submittedAt: NOW,
      runningAt: NOW,
      doneAt: NOW,
      urlAt: NOW,
      seconds: 8,
      resolution: extra.resolution ?? '720p',
      ...(extra.startFrameId === undefined ? {} : { startFrameId: extra.startFrameId }),
      finalStatus: 3,
      stuck: false,
      withoutUrl: false,
      swapped: false,
      sizeMismatch: false,
      charged: 10,
      refunded: false,
    },
  });
}

function addUpload(state: SimState, bytes: Buffer, mimeType: string, width: number, height: number): Media {
  return state.library.addMedia({
    projectId: 'p',
    owner: 'a@example.com',
    kind: 'upload',
    name: 'start.png',
    prompt: '',
    model: '',
    aspectIndex: 2,
    width,
    height,
    seed: 0,
    createdAt: NOW,
    bytes,
    mimeType,
    hiddenForSearches: 0,
  });
}

/** The luma samples of the IDR frame's first macroblock row (I_PCM: 386 bytes a macroblock, samples at RBSP byte 4). */
function firstLumaRow(mp4: Buffer): number[] {
  const mdat = mp4.indexOf('mdat', 0, 'latin1') + 4;
  const rbsp = mp4.subarray(mdat + 4 + 1);
  return [...rbsp.subarray(4, 4 + 16)];
}

describe('clips of the catalogue', () => {
  it('a clip without a start frame shows the painting behind its poster (seed + id), moved by its prompt; the upsample too, larger', () => {
    const state = newState();
    const video = addVideo(state, { prompt: 'pan left over the sea' });
    const key = `${state.seed}:${video.id}`;
    expect(
      mp4For(state, video).equals(
        makeMp4({ width: 1280, height: 720, seconds: 8, key, prompt: 'pan left over the sea' }),
      ),
    ).toBe(true);
    const upsampled = mp4For(state, { ...video, id: `${video.id}_upsampled`, width: 1920, height: 1080 }, true);
    expect(
      upsampled.equals(makeMp4({ width: 1920, height: 1080, seconds: 8, key, prompt: 'pan left over the sea' })),
    ).toBe(true);
    expect(mp4For(state, video)).toBe(mp4For(state, video)); // cached
  });

  it('an i2v clip starts from its uploaded PNG, cover-scaled to the clip', () => {
    const state = newState();
    const rgb = new Uint8Array(320 * 240 * 3).map((_, i) => (i % 3 === 0 ? (i / 3) % 320 : i % 3 === 1 ? 40 : 200));
    const upload = addUpload(state, encodePng({ width: 320, height: 240, rgb }), 'image/png', 320, 240);
    const video = addVideo(state, { startFrameId: upload.id, resolution: '360p' });
    const decoded = decodePng(encodePng({ width: 320, height: 240, rgb }));
    if (decoded === undefined) throw new Error('PNG');
    const expected = toYuv420(coverScale(decoded, 640, 360));
    expect(firstLumaRow(mp4For(state, video))).toEqual([...expected.y.subarray(0, 16)]);
    const unstarted = addVideo(state, { resolution: '360p' });
    expect(firstLumaRow(mp4For(state, unstarted))).not.toEqual([...expected.y.subarray(0, 16)]);
  });

  it('a generated image, a JPEG upload or a clip as the start frame: the painting for that item', () => {
    const state = newState();
    const jpeg = addUpload(state, makeJpeg(64, 48, 'x'), 'image/jpeg', 64, 48);
    const fromJpeg = addVideo(state, { startFrameId: jpeg.id });
    const painted = toYuv420(paintCover(painterFor(`${state.seed}:${jpeg.id}`), 64, 48, 1280, 720));
    expect(firstLumaRow(mp4For(state, fromJpeg))).toEqual([...painted.y.subarray(0, 16)]);
    const image = state.library.addMedia({
      ...jpeg,
      id: 'img-1',
      kind: 'image',
      mimeType: 'image/jpeg',
      width: 1376,
      height: 768,
    });
    delete image.bytes;
    const fromImage = addVideo(state, { startFrameId: image.id });
    const imagePainted = toYuv420(paintCover(painterFor(`${state.seed}:img-1`), 1376, 768, 1280, 720));
    expect(firstLumaRow(mp4For(state, fromImage))).toEqual([...imagePainted.y.subarray(0, 16)]);
    // a clip started from a clip shows what that clip shows
    const chained = addVideo(state, { startFrameId: fromImage.id });
    expect(firstLumaRow(mp4For(state, chained))).toEqual([...imagePainted.y.subarray(0, 16)]);
    // an unknown start frame id falls back to the clip's own painting
    const missing = addVideo(state, { startFrameId: 'gone' });
    expect(firstLumaRow(mp4For(state, missing))).toEqual(
      firstLumaRow(makeMp4({ width: 1280, height: 720, seconds: 8, key: `${state.seed}:${missing.id}` })),
    );
  });
});
