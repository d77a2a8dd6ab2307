import type { Page } from 'playwright-core';
import { withLigature } from './flowPage.js';

/**
 * Dismisses what can sit over the composer (flow-wire §4): Google's consent bar (reject, or accept
 * on the notice-only variant) and "Get started"/promo dialogs (their `close` icon button, else
 * Escape). Never answers the upload-rights dialog.
 */
export async function clearOverlays(page: Page): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    let acted = false;
    const bar = page.locator('#glue-cookie-notification-bar-1, .glue-cookie-notification-bar').first();
    if (await bar.isVisible().catch(() => false)) {
      const reject = page.locator('button.glue-cookie-notification-bar__reject').first();
      const target = (await reject.isVisible().catch(() => false))
        ? reject
        : page.locator('button.glue-cookie-notification-bar__accept').first();
      await target.click({ timeout: 3_000 }).catch(() => undefined);
      acted = true;
    }
    const dialog = page
      .locator('[role="dialog"]')
      .filter({ hasNot: page.locator('button.flow-button-medium') })
      .first();
    if (await dialog.isVisible().catch(() => false)) {
      const close = withLigature(page, dialog.locator('button'), 'close').first();
      if (await close.isVisible().catch(() => false)) await close.click({ timeout: 3_000 }).catch(() => undefined);
      else await page.keyboard.press('Escape');
      acted = true;
    }
    if (!acted) return;
    await page.waitForTimeout(200);
  }
}
