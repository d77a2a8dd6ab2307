import { cancelledBy } from './abortableSleep.js';

export interface KeyedQueueRunOptions {
  /** Aborting while queued removes the entry (CancelledError); once running, `fn` owns cancellation. */
  readonly signal?: AbortSignal;
}

/**
 * In-process FIFO per key: calls on one key run one at a time in arrival order, a later call
 * waits instead of failing, and different keys run in parallel.
 */
export interface KeyedQueue {
  run<T>(key: string, fn: () => T | Promise<T>, options?: KeyedQueueRunOptions): Promise<T>;
  /** Calls for `key` queued or running (0 when idle). */
  size(key: string): number;
  /** Keys with a call queued or running. */
  activeKeys(): string[];
}

interface Entry {
  readonly start: () => void;
}

interface Lane {
  running: boolean;
  readonly waiting: Entry[];
}

/** Creates a KeyedQueue (one per server: each owns its lanes). */
export function createKeyedQueue(): KeyedQueue {
  const lanes = new Map<string, Lane>();

  const next = (key: string, lane: Lane): void => {
    const entry = lane.waiting.shift();
    if (entry === undefined) {
      lane.running = false;
      if (lanes.get(key) === lane) lanes.delete(key);
      return;
    }
    lane.running = true;
    entry.start();
  };

  const run = <T>(key: string, fn: () => T | Promise<T>, options: KeyedQueueRunOptions = {}): Promise<T> => {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelledBy(signal, `Queued call on "${key}"`));
    let lane = lanes.get(key);
    if (lane === undefined) {
      lane = { running: false, waiting: [] };
      lanes.set(key, lane);
    }
    const own = lane;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        const index = own.waiting.indexOf(entry);
        if (index === -1) return;
        own.waiting.splice(index, 1);
        reject(cancelledBy(signal as AbortSignal, `Queued call on "${key}"`));
      };
      const entry: Entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          void (async () => {
            try {
              resolve(await fn());
            } catch (error) {
              reject(error);
            } finally {
              next(key, own);
            }
          })();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      own.waiting.push(entry);
      if (!own.running) next(key, own);
    });
  };

  return {
    run,
    size: (key) => {
      const lane = lanes.get(key);
      return lane === undefined ? 0 : lane.waiting.length + (lane.running ? 1 : 0);
    },
    activeKeys: () => [...lanes.keys()],
  };
}
