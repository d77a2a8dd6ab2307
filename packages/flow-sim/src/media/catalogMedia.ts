import type { Media } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import { makeJpeg } from './jpeg.js';
import { makeMp4 } from './mp4.js';

const cache = new Map<string, Buffer>();

function cached(key: string, make: () => Buffer): Buffer {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = make();
    if (cache.size > 64) cache.delete(cache.keys().next().value ?? '');
    cache.set(key, hit);
  }
  return hit;
}

/** Video frame size for a resolution and aspect index (2 = 16:9, 1 = 9:16). */
export function videoSize(resolution: string, aspectIndex: number): { width: number; height: number } {
  const long = resolution === '1080p' ? 1920 : resolution === '360p' ? 640 : 1280;
  const short = resolution === '1080p' ? 1080 : resolution === '360p' ? 360 : 720;
  return aspectIndex === 1 ? { width: short, height: long } : { width: long, height: short };
}

/** The MP4 of a finished video (or of its 1080p upsample). */
export function mp4For(state: SimState, media: Media, upsampled = false): Buffer {
  const resolution = upsampled ? '1080p' : (media.video?.resolution ?? '720p');
  const { width, height } = videoSize(resolution, media.aspectIndex);
  return cached(`mp4:${state.seed}:${media.id}:${resolution}`, () =>
    makeMp4({ width, height, seconds: media.video?.seconds ?? 8, key: `${state.seed}:${media.id}:${resolution}` }),
  );
}

/** The image bytes of a media item: generated JPEG, video poster JPEG, or the uploaded file. */
export function imageFor(state: SimState, media: Media, scale = 1): { bytes: Buffer; type: string } {
  if (media.kind === 'upload' && media.bytes !== undefined && scale === 1) return { bytes: media.bytes, type: media.mimeType };
  const w = media.width * scale;
  const h = media.height * scale;
  return { bytes: cached(`jpg:${state.seed}:${media.id}:${w}x${h}`, () => makeJpeg(w, h, `${state.seed}:${media.id}`)), type: 'image/jpeg' };
}
