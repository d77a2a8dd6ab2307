import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_SILENCE_MS, type ProgressEvent } from './progressPhases.js';

interface Pending {
  readonly label: string;
  readonly start: () => Promise<void>;
  readonly promise: Promise<void>;
  failed: boolean;
}

/**
 * Work a runtime does once before its first operation, started as soon as it is asked for and
 * waited on by the operations instead of by whoever opened the runtime: a server answers its
 * client at once (the sandbox's sign-in, ~20 s on a fresh home, would outlast a client's connect
 * timeout) and its first call waits, reporting the wait as progress. A warm-up that failed is
 * started again by the next call that waits on it; that call gets its error.
 */
export class WarmUp {
  #pending: Pending | undefined;
  /** Marks the warm-up's own async context: the operations it runs (the sign-in) do not wait on it. */
  readonly #inside = new AsyncLocalStorage<true>();

  /** Starts `start` now; every later `wait` waits for it. */
  begin(label: string, start: () => Promise<void>): void {
    const pending: Pending = { label, start, promise: this.#inside.run(true, start), failed: false };
    this.#pending = pending;
    pending.promise.then(
      () => {
        if (this.#pending === pending) this.#pending = undefined;
      },
      () => {
        pending.failed = true;
      },
    );
  }

  /** Waits for the warm-up, if one is under way (or failed: it runs again), reporting it as progress. */
  async wait(onProgress?: (event: ProgressEvent) => void, signal?: AbortSignal): Promise<void> {
    let pending = this.#pending;
    if (!pending || this.#inside.getStore()) return;
    if (pending.failed) {
      this.begin(pending.label, pending.start);
      pending = this.#pending as Pending;
    }
    const started = Date.now();
    const say = (message: string) =>
      onProgress?.({ phase: 'starting-browser', message, elapsedMs: Date.now() - started });
    say(pending.label);
    const heartbeat = setInterval(
      () => say(`${pending.label} (still, ${Math.round((Date.now() - started) / 1000)} s)`),
      // A client that resets its timeout on progress keeps waiting.
      MAX_SILENCE_MS,
    );
    heartbeat.unref();
    try {
      await abortable(pending.promise, signal);
    } finally {
      clearInterval(heartbeat);
    }
  }
}

function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const stop = (): void =>
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', stop);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
