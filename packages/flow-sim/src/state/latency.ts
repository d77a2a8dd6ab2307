import type { LatencySetting, UrlDelay } from '../types.js';

/** Scale applied to Flow's measured timings: 'fast' finishes a whole video in about a second. */
export function latencyScale(setting: LatencySetting): number {
  if (setting === 'fast') return 0.02;
  if (setting === 'realistic') return 1;
  if (!Number.isFinite(setting) || setting < 0) throw new RangeError(`latency scale must be >= 0, got ${setting}`);
  return setting;
}

/**
 * The URL gap of one clip (flow-captures.md §4, measured 2–8 s), from a measured draw, the mode, the
 * latency scale and the scaled poll interval: `'scaled'` never goes below one second nor three page
 * polls (nor above the measured draw), so the page and the driver still see status 3 without a
 * URL, the normal case, on several replies even on a loaded machine. A second costs nothing more:
 * the page asks for the URLs at most once a second anyway.
 */
export function urlGapMs(measured: number, mode: UrlDelay, scale: number, pollIntervalMs: number): number {
  if (mode === 'measured') return measured;
  return Math.max(Math.round(measured * scale), Math.min(measured, Math.max(URL_GAP_FLOOR_MS, 3 * pollIntervalMs)));
}

/** The shortest scaled URL gap: the page's pace of asking for the URLs (assets/flow/generate.js). */
const URL_GAP_FLOOR_MS = 1_000;

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
