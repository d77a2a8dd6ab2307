import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { dismissOverlays, overlayShown } from './overlays.js';

/**
 * Clicks like a careful human: what already sits over the page (a late "Get started" modal, the
 * consent bar) is dismissed first; if something still takes the click, dismiss it and click again. Playwright errors are rethrown for the caller
 * to turn into a drift post-mortem; a closed browser becomes BrowserSessionClosedError.
 */
export async function safeClick(ctx: OpContext, target: Locator, what: string, timeoutMs = 5_000): Promise<void> {
  if (await overlayShown(ctx.page)) await dismissOverlays(ctx);
  try {
    await target.click({ timeout: Math.min(2_500, timeoutMs) });
    return;
  } catch (error) {
    const mapped = ctx.mapError(error, what);
    if (mapped !== error) throw mapped;
    ctx.logger.debug('click blocked; dismissing overlays and retrying', { what });
  }
  await dismissOverlays(ctx);
  try {
    await target.click({ timeout: timeoutMs });
  } catch (error) {
    throw ctx.mapError(error, what);
  }
}
