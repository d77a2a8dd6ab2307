/**
 * A clip's status in Flow's video record (`DETAILS[8][0]`, flow-wire §3a, measured): 6 submitted
 * (queued), 2 running, 3 done; anything else is a failure (the failure enum was never captured).
 */
export const VIDEO_STATUS = { submitted: 6, running: 2, done: 3 } as const;

/** Where a clip stands, from its record's status. */
export type VideoPhase = 'submitted' | 'running' | 'done' | 'failed' | 'unknown';

export function videoPhase(status: number | null): VideoPhase {
  if (status === null) return 'unknown';
  if (status === VIDEO_STATUS.submitted) return 'submitted';
  if (status === VIDEO_STATUS.running) return 'running';
  if (status === VIDEO_STATUS.done) return 'done';
  return 'failed';
}

/** What a person reads for a clip's status (progress lines show these words, never Flow's numbers). */
const WORDS: Readonly<Record<VideoPhase, string>> = {
  submitted: "waiting in Flow's queue",
  running: 'rendering in Flow',
  done: 'done in Flow',
  failed: 'failed in Flow',
  unknown: 'status unknown',
};

/** The words for a clip's status number. */
export function videoStatusWords(status: number | null): string {
  return WORDS[videoPhase(status)];
}
