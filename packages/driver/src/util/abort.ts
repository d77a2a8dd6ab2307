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

/**
 * Polls `probe` every `intervalMs` until it returns a non-undefined value or `timeoutMs` passes
 * (then resolves undefined). Honours the signal.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal | undefined },
): Promise<T | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    throwIfAborted(options.signal);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) return undefined;
    await sleep(Math.min(options.intervalMs ?? 200, Math.max(0, deadline - Date.now())), options.signal);
  }
}
