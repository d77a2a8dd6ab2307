import { CancelledError } from '@gflow/errors';

/** A CancelledError for an aborted signal, keeping the abort reason as the cause. */
export function cancelledBy(signal: AbortSignal, what: string): CancelledError {
  return new CancelledError(`${what} was cancelled.`, { cause: signal.reason });
}

/** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledBy(signal, what));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledBy(signal as AbortSignal, what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
