import type { Media } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import { makeJpeg } from './jpeg.js';
import { type Mp4Spec, frameCount, makeMp4, panOf } from './mp4.js';
import { panAt } from './pan.js';
import { continueClip, shiftRaster } from './extensionClip.js';
import { coverScale, paintCover } from './picture.js';
import type { Raster } from './picture.js';
import { painterFor } from './pixels.js';
import { decodePng } from './pngDecode.js';

const cache = new Map<string, Buffer>();
/** A clip is about one raw picture (3 MB at 1080p): the cache is bounded in bytes as well as entries. */
const CACHE_BYTES = 96 * 1024 * 1024;
let cachedBytes = 0;

function cached(key: string, make: () => Buffer): Buffer {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = make();
    while (cache.size > 0 && (cache.size > 64 || cachedBytes + hit.length > CACHE_BYTES)) {
      const oldest = cache.keys().next().value ?? '';
      cachedBytes -= cache.get(oldest)?.length ?? 0;
      cache.delete(oldest);
    }
    cache.set(key, hit);
    cachedBytes += hit.length;
  }
  return hit;
}

const UPSAMPLED = '_upsampled';

/** Video frame size for a resolution and aspect index (2 = 16:9, 1 = 9:16). */
export function videoSize(resolution: string, aspectIndex: number): { width: number; height: number } {
  const long = resolution === '1080p' ? 1920 : resolution === '360p' ? 640 : 1280;
  const short = resolution === '1080p' ? 1080 : resolution === '360p' ? 360 : 720;
  return aspectIndex === 1 ? { width: short, height: long } : { width: long, height: short };
}

/**
 * What a media item looks like at `width`×`height` (cover-scaled): an uploaded PNG decoded, a video
 * its own start frame (or its painting), anything else — a generated image, a JPEG/WebP/GIF upload
 * — the deterministic painting for its id (the same painter its JPEG and poster come from).
 */
function pictureOf(state: SimState, media: Media, width: number, height: number, depth = 0): Raster {
  if (media.kind === 'upload' && media.bytes !== undefined) {
    const decoded = decodePng(media.bytes);
    if (decoded !== undefined) return coverScale(decoded, width, height);
  }
  const start = media.video?.startFrameId;
  const frame = start === undefined || depth > 3 ? undefined : state.library.media.get(start);
  if (frame !== undefined) return pictureOf(state, frame, width, height, depth + 1);
  const id = media.id.endsWith(UPSAMPLED) ? media.id.slice(0, -UPSAMPLED.length) : media.id;
  return paintCover(painterFor(`${state.seed}:${id}`), media.width, media.height, width, height);
}

/**
 * The MP4 of a finished video (or of its 1080p upsample): a playable H.264 clip (mp4.ts) of the
 * job's start frame (i2v, interpolation) or of the painting for its id (the poster's), panned the
 * way its prompt says — or, for an extension, its source's picture and move continued. The upsample
 * shows the same picture and move, larger.
 */
function clipSpec(state: SimState, media: Media, upsampled: boolean, depth = 0): Mp4Spec {
  const resolution = upsampled ? '1080p' : (media.video?.resolution ?? '720p');
  const { width, height } = videoSize(resolution, media.aspectIndex);
  const baseId = media.id.endsWith(UPSAMPLED) ? media.id.slice(0, -UPSAMPLED.length) : media.id;
  const seconds = media.video?.seconds ?? 8;
  const spec = { width, height, seconds, key: `${state.seed}:${baseId}`, prompt: media.prompt };
  // An extension continues its source's picture and move (extensionClip.ts, flow-captures.md §10).
  const seed = media.video?.extendsFrom;
  const source = seed === undefined || depth > MAX_EXTENSION_DEPTH ? undefined : state.library.media.get(seed.mediaId);
  if (seed !== undefined && source !== undefined) {
    const from = clipSpec(state, source, upsampled, depth + 1) as Mp4Spec & { picture: Raster };
    return { ...spec, ...continueClip(from, seed.fromFrame, seconds) };
  }
  return { ...spec, picture: pictureOf(state, media, width, height) };
}

/** Extensions of extensions followed back to a generated clip (deeper: painted afresh). */
const MAX_EXTENSION_DEPTH = 64;

export function mp4For(state: SimState, media: Media, upsampled = false): Buffer {
  const resolution = upsampled ? '1080p' : (media.video?.resolution ?? '720p');
  const baseId = media.id.endsWith(UPSAMPLED) ? media.id.slice(0, -UPSAMPLED.length) : media.id;
  // The picture is painted (or decoded) only on a miss.
  return cached(`mp4:${state.seed}:${baseId}:${resolution}`, () => makeMp4(clipSpec(state, media, upsampled)));
}

/**
 * What a clip's first or last frame shows, from the encoder's input (not by decoding): its picture
 * seen through the camera at the start or the end of its move, the edge repeated beyond it (as the
 * decoder does). Tests hold what gflow took from the decoded clip against it.
 */
export function clipFrameFor(state: SimState, media: Media, which: 'first' | 'last'): Raster {
  const spec = clipSpec(state, media, false);
  const frames = frameCount(spec);
  return shiftRaster(spec.picture as Raster, panAt(panOf(spec), frames, which === 'first' ? 0 : frames - 1));
}

/** The image bytes of a media item: generated JPEG, video poster JPEG, or the uploaded file. */
export function imageFor(state: SimState, media: Media, scale = 1): { bytes: Buffer; type: string } {
  if (media.kind === 'upload' && media.bytes !== undefined && scale === 1)
    return { bytes: media.bytes, type: media.mimeType };
  const w = media.width * scale;
  const h = media.height * scale;
  return {
    bytes: cached(`jpg:${state.seed}:${media.id}:${w}x${h}`, () => makeJpeg(w, h, `${state.seed}:${media.id}`)),
    type: 'image/jpeg',
  };
}
