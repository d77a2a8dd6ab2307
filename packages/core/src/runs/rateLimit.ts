import { abortableSleep } from '@gflow/lease/limits';
import type { OperationContext } from '../runtime/operationContext.js';

/** On a rate-limited surface (MCP, HTTP) a run waits for its token before each submit instead of failing halfway. */
export async function takeTokenWaiting(context: OperationContext): Promise<void> {
  const { runtime } = context;
  for (;;) {
    const taken = runtime.limiter.tryTake();
    if (taken.ok) return;
    context.onProgress?.({
      phase: 'queued',
      message: `rate limited: next submit in ${Math.ceil(taken.retryAfterMs / 1000)} s`,
    });
    await abortableSleep(taken.retryAfterMs, context.signal, 'waiting for the rate limiter');
  }
}
