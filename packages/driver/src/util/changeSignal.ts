import { throwIfAborted } from './abort.js';

/**
 * A wake-up for waits on state that arrives by events (the page's own rpc replies, parsed as they
 * come): the listener calls `notify()` after each change; a waiter awaits `next()` and re-reads
 * the state. Nothing is polled.
 */
export class ChangeSignal {
  #waiters: Array<() => void> = [];

  notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notify(), or after `capMs` (a deadline's remainder), or rejects when the signal fires. */
  next(capMs: number, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal, 'a wait');
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((w) => w !== done);
        try {
          throwIfAborted(signal, 'a wait');
        } catch (error) {
          reject(error as Error);
        }
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== done);
        done();
      }, capMs);
      this.#waiters.push(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Re-reads `read` after every change until it gives a value or `timeoutMs` passes (undefined). */
  async until<T>(read: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = read();
      if (value !== undefined) return value;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await this.next(left, signal);
    }
  }
}
