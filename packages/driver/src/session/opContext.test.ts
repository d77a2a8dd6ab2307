// The hand-over before a click that spends (issue 46): `submitting` is awaited, and a caller whose
// write failed (its queue row is no longer the run's) stops the click; other phases are not awaited
// and their failures only logged. A fake page: nothing here touches a browser.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DriverLogger } from '../util/logger.js';
import { type DriverProgressEvent, OpContext } from './opContext.js';
import type { WireTap } from './wireTap.js';

function context(progress: (event: DriverProgressEvent) => unknown) {
  const warnings: string[] = [];
  const logger: DriverLogger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => void warnings.push(message),
    error: () => undefined,
  };
  const page = { once: () => page, off: () => page, isClosed: () => false, url: () => 'about:blank' };
  const ctx = new OpContext({
    page: page as unknown as Page,
    tap: {} as WireTap,
    flowHost: 'auto',
    logger,
    signal: undefined,
    progress,
  });
  return { ctx, warnings };
}

describe('OpContext: the report before a click that spends', () => {
  it('waits for the caller to have written `submitting`, then marks the operation as spending', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const { ctx } = context((event) => {
      order.push(`report ${event.phase} ${event.mayHaveSpent}`);
      return new Promise<void>((resolve) => (release = resolve));
    });
    const reported = ctx.reportSubmitting().then(() => order.push('may click'));
    await Promise.resolve();
    expect(order).toEqual(['report submitting true']);
    expect(ctx.afterSubmit).toBe(false);
    release();
    await reported;
    expect(order).toEqual(['report submitting true', 'may click']);
    expect(ctx.afterSubmit).toBe(true);
  });

  it('a write that failed stops the click: the error reaches the caller and nothing is marked spent', async () => {
    const { ctx } = context(() => Promise.reject(new Error('Task t is failed and not held by this worker.')));
    await expect(ctx.reportSubmitting()).rejects.toThrow(/not held by this worker/);
    expect(ctx.afterSubmit).toBe(false);
    const thrower = context(() => {
      throw new Error('the catalog is read-only');
    });
    await expect(thrower.ctx.reportSubmitting()).rejects.toThrow(/read-only/);
  });

  it('other phases are not awaited; a failed write there is logged, never an unhandled rejection', async () => {
    const { ctx, warnings } = context((event) =>
      event.phase === 'generating' ? Promise.reject(new Error('row settled meanwhile')) : undefined,
    );
    ctx.report({ phase: 'generating' });
    ctx.report({ phase: 'downloading' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual(['onProgress threw']);
  });
});
