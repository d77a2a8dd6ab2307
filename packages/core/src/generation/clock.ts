import { MAX_SILENCE_MS } from '../runtime/progressPhases.js';

/** How often the silence is looked at. */
const HEARTBEAT_TICK_MS = 1_000;
/**
 * Silence this long gets a heartbeat (a progress event and a touched task row) at the next tick,
 * so no silence outlasts MAX_SILENCE_MS.
 */
export const HEARTBEAT_MS = MAX_SILENCE_MS - HEARTBEAT_TICK_MS;
/** How often the row is read for a cancel another process asked for, by default. */
const CANCEL_POLL_MS = 500;

export interface RunClockOptions {
  /** The caller's own signal (a client's cancel, a dropped connection, Ctrl-C). */
  readonly signal: AbortSignal;
  /** GFLOW_CLI_TIMEOUT_SECONDS: the bound from the browser session being ours to the result. */
  readonly timeoutSeconds: number;
  /** Whether another process asked to cancel (the task row's `cancel_requested_at`); read every `cancelPollMs` (one read at a time). */
  readonly cancelRequested: () => boolean | Promise<boolean>;
  readonly cancelPollMs?: number | undefined;
  /** Called when the job has said nothing for HEARTBEAT_MS (checked every second). */
  readonly onSilence: (silentForMs: number) => void;
}

/**
 * The one clock of a run: the deadline, the cancel poll and the heartbeat, started together and
 * stopped together (`stop`, in the run's `finally`). `signal` aborts on the caller's signal or a
 * cancel asked for elsewhere; `bounded` also when the deadline passes, once it is started.
 */
export class RunClock {
  readonly #cancelled = new AbortController();
  readonly #deadline = new AbortController();
  readonly #timers: NodeJS.Timeout[] = [];
  #deadlineTimer: NodeJS.Timeout | undefined;
  #lastWord = Date.now();
  /** A cancel read still under way (a fleet's queue answers later): the next tick skips. */
  #polling = false;
  readonly started = Date.now();
  /** Aborts on the caller's signal or a cancel asked for elsewhere. */
  readonly signal: AbortSignal;
  /** `signal`, and the deadline once started. */
  readonly bounded: AbortSignal;

  constructor(private readonly options: RunClockOptions) {
    this.signal = AbortSignal.any([options.signal, this.#cancelled.signal]);
    this.bounded = AbortSignal.any([this.signal, this.#deadline.signal]);
    this.#every(options.cancelPollMs ?? CANCEL_POLL_MS, () => this.#pollCancel());
    this.#every(HEARTBEAT_TICK_MS, () => this.#checkSilence());
  }

  /** The deadline runs from now (the browser session is ours). */
  startDeadline(): void {
    this.#deadlineTimer = setTimeout(
      () => this.#deadline.abort(new DOMException('The generation deadline passed.', 'TimeoutError')),
      this.options.timeoutSeconds * 1000,
    );
    this.#deadlineTimer.unref();
  }

  /** The deadline no longer applies (the result is in; the download is bounded by its own progress). */
  stopDeadline(): void {
    clearTimeout(this.#deadlineTimer);
  }

  /** Whether the deadline, and not the caller or a cancel, stopped the run. */
  get deadlinePassed(): boolean {
    return this.#deadline.signal.aborted && !this.signal.aborted;
  }

  /** The job said something: the heartbeat waits HEARTBEAT_MS from now. */
  spoke(): void {
    this.#lastWord = Date.now();
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }

  stop(): void {
    clearTimeout(this.#deadlineTimer);
    for (const timer of this.#timers) clearInterval(timer);
  }

  #every(ms: number, tick: () => void): void {
    const timer = setInterval(tick, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #pollCancel(): void {
    if (this.#polling) return;
    const cancel = (): void =>
      this.#cancelled.abort(new DOMException('Cancelled by a task cancel request.', 'AbortError'));
    try {
      const asked = this.options.cancelRequested();
      if (typeof asked === 'boolean') {
        if (asked) cancel();
        return;
      }
      this.#polling = true;
      asked
        .then((yes) => (yes ? cancel() : undefined))
        // A queue that cannot be read now is read again at the next tick.
        .catch(() => undefined)
        .finally(() => (this.#polling = false));
    } catch {
      // A catalog that cannot be read now is read again at the next tick.
    }
  }

  #checkSilence(): void {
    const silent = Date.now() - this.#lastWord;
    if (silent < HEARTBEAT_MS || this.signal.aborted) return;
    this.#lastWord = Date.now();
    this.options.onSilence(silent);
  }
}
