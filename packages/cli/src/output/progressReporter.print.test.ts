import { describe, expect, it } from 'vitest';
import { createProgressReporter, formatDuration } from './progressReporter.js';

function terminal(isTTY = true): { write(chunk: string): boolean; isTTY: boolean; columns: number; out: string } {
  const stream = {
    out: '',
    isTTY,
    columns: 80,
    write(chunk: string): boolean {
      stream.out += chunk;
      return true;
    },
  };
  return stream;
}

/** What a terminal shows: `\r` returns to the line's start, ESC[2K clears the line. */
function screen(raw: string): string[] {
  const lines: string[] = [''];
  for (const part of raw.split(/(\r|\x1b\[2K|\n)/)) {
    if (part === '\n') lines.push('');
    else if (part === '\x1b[2K') lines[lines.length - 1] = '';
    else if (part !== '\r') lines[lines.length - 1] += part;
  }
  return lines;
}

describe('progress line and log lines on a terminal', () => {
  it('a log line written while the spinner runs gets its own line; the spinner is drawn again below it', () => {
    const tty = terminal();
    const progress = createProgressReporter(tty, { mode: 'auto', json: false });
    progress.update({ phase: 'starting-browser', elapsedMs: 0 });
    progress.print('[gflow] warning: the page was slow\n');
    const shown = screen(tty.out);
    expect(shown[0]).toBe('[gflow] warning: the page was slow');
    expect(shown[1]).toMatch(/^. Starting the browser 0s$/);
    progress.stop();
    expect(screen(tty.out).at(-1)).toBe('');
  });

  it('without a running spinner (or off a terminal) a line is written as it is', () => {
    const tty = terminal();
    createProgressReporter(tty, { mode: 'auto', json: false }).print('a line\n');
    expect(tty.out).toBe('a line\n');
    const pipe = terminal(false);
    createProgressReporter(pipe, { mode: 'auto', json: false }).print('b\n');
    expect(pipe.out).toBe('b\n');
  });

  it('the summary line clears the spinner and ends the run on a terminal, with the time the run took; nowhere else', () => {
    const tty = terminal();
    const progress = createProgressReporter(tty, { mode: 'auto', json: false });
    progress.update({ phase: 'generating', elapsedMs: 0 });
    progress.summarize('Made 1 image in project p: /out/x.jpg', true);
    expect(screen(tty.out).filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^✓ Made 1 image in project p: \/out\/x\.jpg in \d+\.\d s$/),
    ]);
    createProgressReporter(tty, { mode: 'auto', json: false }).summarize('1/2 completed', false);
    expect(tty.out).toMatch(/✗ 1\/2 completed in \d+\.\d s\n$/);
    for (const [stream, options] of [
      [terminal(false), { mode: 'auto', json: false }],
      [terminal(), { mode: 'auto', json: true }],
      [terminal(), { mode: 'jsonl', json: false }],
      [terminal(), { mode: 'off', json: false }],
    ] as const) {
      createProgressReporter(stream, options).summarize('Made 1 image', true);
      expect(stream.out).toBe('');
    }
  });

  it('says a duration in seconds, then minutes', () => {
    expect(formatDuration(3_420)).toBe('3.4 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
  });
});
