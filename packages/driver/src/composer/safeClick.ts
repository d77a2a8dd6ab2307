import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { dismissOverlays, overlayShown } from './overlays.js';

/**
 * Clicks like a careful human: what already sits over the page (a late "Get started" modal, the
 * consent bar) is dismissed first — unless the target is inside that dialog; if something still takes the click, dismiss it and click again. Playwright errors are rethrown for the caller
 * to turn into a drift post-mortem; a closed browser becomes BrowserSessionClosedError.
 */
export async function safeClick(ctx: OpContext, target: Locator, what: string, timeoutMs = 5_000): Promise<void> {
  // A target inside a dialog is the dialog's own control (the scene editor's extend dialog [U]), not
  // something a dialog sits over: never dismiss the dialog it is in.
  const inDialog =
    (await target.count().catch(() => 0)) > 0 &&
    (await target
      .first()
      .evaluate((el) => el.closest('[role="dialog"]') !== null, undefined, { timeout: 500 })
      .catch(() => false));
  if (!inDialog && (await overlayShown(ctx.page))) await dismissOverlays(ctx);
  try {
    await target.click({ timeout: Math.min(2_500, timeoutMs) });
    return;
  } catch (error) {
    const mapped = ctx.mapError(error, what);
    if (mapped !== error) throw mapped;
    ctx.logger.debug('click blocked; dismissing overlays and retrying', { what });
  }
  if (!inDialog) await dismissOverlays(ctx);
  try {
    await target.click({ timeout: timeoutMs });
  } catch (error) {
    throw ctx.mapError(error, what);
  }
}
