import type { LatencySetting } from '../types.js';

/** Scale applied to Flow's measured timings: 'fast' finishes a whole video in about a second. */
export function latencyScale(setting: LatencySetting): number {
  if (setting === 'fast') return 0.02;
  if (setting === 'realistic') return 1;
  if (!Number.isFinite(setting) || setting < 0) throw new RangeError(`latency scale must be >= 0, got ${setting}`);
  return setting;
}

/** Flow's measured timings in milliseconds (flow-wire §3), before scaling. */
export const TIMINGS = {
  imageReply: 19_700,
  videoSubmitReply: 4_300,
  videoRunningAfter: 6_000,
  videoDoneAfter: 38_000,
  urlAfterDoneMin: 2_000,
  urlAfterDoneMax: 8_000,
  pollInterval: 5_000,
  pollReply: 400,
  uploadReply: 1_500,
  searchReply: 300,
  imageUpscaleReply: 3_000,
  videoUpscaleReply: 2_000,
  videoUpscaleDone: 30_000,
  projectReply: 500,
  smallReply: 150,
} as const;
