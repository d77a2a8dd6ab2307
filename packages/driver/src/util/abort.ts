import { CancelledError } from '@gflow/errors';

/** Throws CancelledError when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what = 'the operation'): void {
  if (signal?.aborted === true) throw cancelled(signal, what);
}

export function cancelled(
  signal: AbortSignal | undefined,
  what: string,
  extensions: Record<string, unknown> = {},
): CancelledError {
  const reason: unknown = signal?.reason;
  const because = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new CancelledError(`Cancelled ${what}${because}.`, { extensions });
}

/** Sleeps, waking early (with CancelledError) when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(cancelled(signal, 'a wait'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(signal, 'a wait'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
