import { describe, expect, it, vi } from 'vitest';
import { createProgressReporter, formatProgress, progressModeOf } from './progressReporter.js';

function stream(tty: boolean) {
  let text = '';
  return { write: (chunk: string) => (text += chunk), isTTY: tty, columns: 80, text: () => text };
}

describe('progress on stderr', () => {
  it('jsonl: one JSON object per event, also with --json and without a terminal', () => {
    const err = stream(false);
    const p = createProgressReporter(err, { mode: 'jsonl', json: true });
    p.update({ phase: 'queued', message: 'item 1/3' });
    p.update({ phase: 'generating', message: 'item 1/3: generating' });
    p.stop();
    const lines = err
      .text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ type: 'progress', phase: 'queued', message: 'item 1/3' });
    expect(typeof lines[1]?.['at']).toBe('string');
  });

  it('auto: a status line on a terminal only, never with --json; off: nothing', () => {
    const tty = stream(true);
    const p = createProgressReporter(tty, { mode: 'auto', json: false });
    p.update({ phase: 'generating', message: 'item 2/3: generating' });
    p.stop();
    expect(tty.text()).toContain('Generating – item 2/3: generating');
    for (const [mode, json, isTTY] of [
      ['auto', true, true],
      ['auto', false, false],
      ['off', false, true],
    ] as const) {
      const s = stream(isTTY);
      const q = createProgressReporter(s, { mode, json });
      q.update({ phase: 'queued' });
      q.stop();
      expect(s.text(), `${mode} json=${json} tty=${isTTY}`).toBe('');
    }
  });

  it('the flag beats GFLOW_CLI_PROGRESS, which beats auto', () => {
    expect(progressModeOf('off', { GFLOW_CLI_PROGRESS: 'jsonl' })).toBe('off');
    expect(progressModeOf(undefined, { GFLOW_CLI_PROGRESS: ' JSONL ' })).toBe('jsonl');
    expect(progressModeOf(undefined, {})).toBe('auto');
    expect(progressModeOf(undefined, { GFLOW_CLI_PROGRESS: 'loud' })).toBe('auto');
  });
});

describe('remote text on the progress line (issue 40)', () => {
  it("shows escapes in Flow's status, the message and log lines; only the reporter's own control codes are sent", () => {
    const tty = stream(true);
    const p = createProgressReporter(tty, { mode: 'auto', json: false });
    p.update({ phase: 'generating', message: 'prompt \u001b]0;pwned\u0007', flowStatus: 'RUNNING\u001b[31m' });
    p.print('[gflow] warning: flow said \u001b[2J\n');
    p.stop();
    // Every ESC written is the reporter's own line clear (\r\x1b[2K).
    expect(tty.text().replaceAll('\r\u001b[2K', '')).not.toMatch(/[\u001b\u0007]/);
    expect(tty.text()).toContain('prompt \\x1b]0;pwned\\x07');
    expect(tty.text()).toContain('[RUNNING\\x1b[31m]');
    expect(tty.text()).toContain('flow said \\x1b[2J');
  });
});

describe('the status line adds up (issue 41)', () => {
  it('its timer is the clock: it moves every second between events, anchored at the job start an event says', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const tty = stream(true);
      const p = createProgressReporter(tty, { mode: 'auto', json: false });
      // The job started 3 s before this event reached the command (a worker, a wait).
      p.update({ phase: 'generating', elapsedMs: 3_000, flowStatus: 'rendering in Flow' });
      const seconds = (): number[] => [...tty.text().matchAll(/ (\d+)s(?=\r|$)/g)].map((m) => Number(m[1]));
      for (let i = 0; i < 5; i++) vi.advanceTimersByTime(1_000);
      p.stop();
      const shown = [...new Set(seconds())];
      // Every second from the job's 3 s on, none skipped, none frozen (redrawn 8 times a second).
      expect(shown).toEqual([3, 4, 5, 6, 7]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a run's line says which item; a count is a count, never bytes", () => {
    expect(formatProgress({ phase: 'generating', step: { index: 1, total: 3 } }, '', 4_200)).toBe(
      'Generating item 2/3 4s',
    );
    const downloading = formatProgress({ phase: 'downloading', progress: 0, total: 1, message: 'file' });
    expect(downloading).toContain('0/1');
    expect(downloading).not.toMatch(/\bB\b|KiB|MiB/);
  });
});
