import { describe, expect, it } from 'vitest';
import { videoPhase, videoStatusWords } from './videoStatus.js';

describe("a clip's status", () => {
  it('reads the measured numbers (6 queued, 2 running, 3 done), anything else as failed', () => {
    expect([6, 2, 3, 7, 99, null].map(videoPhase)).toEqual([
      'submitted',
      'running',
      'done',
      'failed',
      'failed',
      'unknown',
    ]);
  });

  it('is said in words, never as a number', () => {
    for (const status of [6, 2, 3, 7, null]) expect(videoStatusWords(status)).not.toMatch(/\d/);
    expect(videoStatusWords(2)).toBe('rendering in Flow');
  });
});
