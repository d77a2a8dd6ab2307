import type { ProgressEvent, ProgressPhase } from '@gflow/core';
import type { CliStream } from '../cliIo.js';
import { terminalText } from './terminalText.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A label for each of core's PROGRESS_PHASES (the type makes a missing or stale one a compile error). */
const PHASE_LABEL: Readonly<Record<ProgressPhase, string>> = {
  queued: 'Queued',
  'waiting-for-profile': 'Waiting for the profile',
  'starting-browser': 'Starting the browser',
  uploading: 'Uploading',
  configuring: 'Configuring Flow',
  submitting: 'Submitting',
  submitted: 'Submitted',
  generating: 'Generating',
  downloading: 'Downloading',
  recording: 'Recording',
  done: 'Done',
};

export interface ProgressReporter {
  update(event: ProgressEvent): void;
  /**
   * Writes a whole line (a log line) to the same stream: a running spinner's line is cleared first
   * and drawn again below it, so the two never share a line.
   */
  print(line: string): void;
  /** Clears the line (before the result or an error is printed). */
  stop(): void;
  /**
   * The run's last line on a terminal: what was made, where, and how long the run took (from the
   * reporter's creation, the start of the command). Nothing off a terminal, with --json or jsonl.
   */
  summarize(summary: string, ok: boolean): void;
}

/** "3.4 s", "2 min 05 s": a run's duration as the summary line says it. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * One status line: the phase, which item of a run, the message, Flow's status in words, a bar of
 * the work done (a count, `2/5`: progress/total is never bytes) and the elapsed time in whole
 * seconds (`elapsedMs`: the caller's clock, else the event's).
 */
export function formatProgress(event: ProgressEvent, frame = '', elapsedMs = event.elapsedMs): string {
  const parts = [frame, PHASE_LABEL[event.phase] ?? terminalText(String(event.phase))];
  if (event.step) parts.push(`item ${event.step.index + 1}/${event.step.total}`);
  // Flow's words and the job's message are remote or stored text: one line, escapes shown.
  if (event.message) parts.push(`– ${terminalText(event.message)}`);
  if (event.flowStatus) parts.push(`[${terminalText(event.flowStatus)}]`);
  if (event.total && event.progress !== undefined && !event.step) {
    const ratio = Math.min(1, Math.max(0, event.progress / event.total));
    const filled = Math.round(ratio * 20);
    parts.push(`${'█'.repeat(filled)}${'░'.repeat(20 - filled)} ${event.progress}/${event.total}`);
  }
  if (elapsedMs !== undefined) parts.push(`${Math.floor(Math.max(0, elapsedMs) / 1000)}s`);
  return parts.filter(Boolean).join(' ');
}

export type ProgressMode = 'auto' | 'jsonl' | 'off';

/** `--progress`, else GFLOW_CLI_PROGRESS, else auto; anything else is refused by the caller's parser. */
export function progressModeOf(flag: unknown, env: NodeJS.ProcessEnv): ProgressMode {
  const value = typeof flag === 'string' ? flag : (env['GFLOW_CLI_PROGRESS'] ?? 'auto').trim().toLowerCase();
  return value === 'jsonl' || value === 'off' ? value : 'auto';
}

/**
 * Progress on stderr. `auto`: a spinner line naming the phase when stderr is a terminal and the
 * output is not --json, else nothing (pipes and logs stay clean). `jsonl`: one JSON object per
 * event (`{"type":"progress","at":…,"phase":…,"message"?:…}`), for scripts. `off`: nothing.
 */
export function createProgressReporter(
  stream: CliStream,
  options: { readonly mode: ProgressMode; readonly json: boolean },
): ProgressReporter {
  if (options.mode === 'jsonl')
    return {
      update: (event) =>
        void stream.write(`${JSON.stringify({ type: 'progress', at: new Date().toISOString(), ...event })}\n`),
      print: (line) => void stream.write(line),
      stop: () => undefined,
      summarize: () => undefined,
    };
  const started = Date.now();
  const enabled = options.mode === 'auto' && !options.json && stream.isTTY === true;
  if (!enabled)
    return {
      update: () => undefined,
      print: (line) => void stream.write(terminalText(line, { multiline: true })),
      stop: () => undefined,
      summarize: () => undefined,
    };
  let last: ProgressEvent | undefined;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  // The timer is this clock's, not the events': they come when the job has something to say (a
  // poll every 5 s), and a line that showed their time froze between them (issue 41). The job's
  // own start, when an event says it, anchors it (a worker's job may have started earlier).
  let since = started;
  const draw = (): void => {
    if (!last) return;
    const width = Math.max(20, (stream.columns || 80) - 1); // a pseudo-terminal of no size says 0
    const line = formatProgress(last, FRAMES[frame++ % FRAMES.length], Date.now() - since).slice(0, width);
    stream.write(`\r\x1b[2K${line}`);
  };
  return {
    update(event) {
      last = event;
      if (event.elapsedMs !== undefined) since = Math.min(since, Date.now() - event.elapsedMs);
      draw();
      if (!timer) {
        timer = setInterval(draw, 120);
        timer.unref();
      }
    },
    print(raw) {
      const line = terminalText(raw, { multiline: true });
      if (!last) {
        stream.write(line);
        return;
      }
      stream.write(`\r\x1b[2K${line.endsWith('\n') ? line : `${line}\n`}`);
      draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (last) stream.write('\r\x1b[2K');
      last = undefined;
    },
    summarize(summary, ok) {
      this.stop();
      stream.write(`${ok ? '✓' : '✗'} ${summary} in ${formatDuration(Date.now() - started)}\n`);
    },
  };
}
