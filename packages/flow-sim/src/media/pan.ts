import { hash32 } from '../state/random.js';

/** A camera move over a whole clip: total travel in luma pixels (even), +x right, +y down. */
export interface Pan {
  x: number;
  y: number;
}

const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
];

function even(value: number): number {
  return 2 * Math.round(value / 2) + 0; // + 0 turns −0 into 0
}

/**
 * The camera move a prompt asks for: words of direction ("pan left", "tilt up", "falling", …)
 * when it has some, else one of eight directions from its hash. The camera travels an eighth of
 * the picture along each moving axis, so what enters at the edge (the last row or column, repeated)
 * stays a narrow band.
 */
export function panFor(prompt: string, width: number, height: number): Pan {
  const text = prompt.toLowerCase();
  let x = /\b(left|leftwards?|westwards?)\b/.test(text) ? -1 : /\b(right|rightwards?|eastwards?)\b/.test(text) ? 1 : 0;
  let y = /\b(up|upwards?|rising|rises|ascending|skywards?)\b/.test(text)
    ? -1
    : /\b(down|downwards?|falling|falls|descending)\b/.test(text)
      ? 1
      : 0;
  if (x === 0 && y === 0) [x, y] = DIRECTIONS[hash32(`pan:${prompt}`) % DIRECTIONS.length] ?? [1, 0];
  return { x: x * even(width / 8), y: y * even(height / 8) };
}

/** Where the camera is at frame `index` of `frames` (linear, whole even pixels; the last frame at the full pan). */
export function panAt(pan: Pan, frames: number, index: number): Pan {
  if (frames <= 1) return { x: 0, y: 0 };
  const t = Math.min(Math.max(index, 0), frames - 1) / (frames - 1);
  return { x: even(pan.x * t), y: even(pan.y * t) };
}

/** The move from each frame to the next: `frames − 1` steps summing to the pan. */
export function panSteps(pan: Pan, frames: number): Pan[] {
  const steps: Pan[] = [];
  for (let i = 1; i < frames; i += 1) {
    const a = panAt(pan, frames, i - 1);
    const b = panAt(pan, frames, i);
    steps.push({ x: b.x - a.x, y: b.y - a.y });
  }
  return steps;
}
