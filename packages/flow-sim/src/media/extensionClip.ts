import { type Mp4Spec, frameCount, panOf } from './mp4.js';
import type { Pan } from './pan.js';
import type { Raster } from './picture.js';

function even(value: number): number {
  return 2 * Math.round(value / 2) + 0; // + 0 turns −0 into 0
}

/**
 * Where the camera of a clip whose whole move is `pan` over `frames` frames is at frame `index`
 * (0-based), also past the last frame: the move goes on at the same pace. Inside the clip it is
 * pan.ts `panAt` exactly.
 */
export function panBeyond(pan: Pan, frames: number, index: number): Pan {
  if (frames <= 1) return { x: 0, y: 0 };
  const t = index / (frames - 1);
  return { x: even(pan.x * t), y: even(pan.y * t) };
}

/** `picture` seen through a camera moved by `d`: what a clip's frame shows, the edge repeated beyond it (as the decoder does). */
export function shiftRaster(picture: Raster, d: Pan): Raster {
  const { width, height } = picture;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const sy = Math.min(Math.max(y + d.y, 0), height - 1);
    for (let x = 0; x < width; x += 1) {
      const sx = Math.min(Math.max(x + d.x, 0), width - 1);
      const from = (sy * width + sx) * 3;
      rgb.set(picture.rgb.subarray(from, from + 3), (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}

/** The first frame of an extension (0-based, in its source's frames) for a window ending at `windowEnd` (1-based) and an overlap of `overlapSeconds`. */
export function extensionStartFrame(windowEnd: number, overlapSeconds: number, fps = 24): number {
  return windowEnd - Math.round(overlapSeconds * fps);
}

/**
 * What an extension shows (flow-captures.md §10: "a separate clip that continues from the
 * source's last second"): its first frame is frame `fromFrame` of the source — inside the source's
 * last second when it overlaps, the frame after the last when it does not — and its camera keeps
 * the source's move at the same pace for the extension's own length.
 */
export function continueClip(
  source: Mp4Spec & { readonly picture: Raster },
  fromFrame: number,
  seconds: number,
): { picture: Raster; pan: Pan } {
  const sourceFrames = frameCount(source);
  const move = panOf(source);
  const frames = frameCount({ seconds, ...(source.fps === undefined ? {} : { fps: source.fps }) });
  const pace = sourceFrames <= 1 ? 0 : (frames - 1) / (sourceFrames - 1);
  return {
    picture: shiftRaster(source.picture, panBeyond(move, sourceFrames, fromFrame)),
    pan: { x: even(move.x * pace), y: even(move.y * pace) },
  };
}
