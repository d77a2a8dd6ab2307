import type { Page } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { throwIfAborted } from '../util/abort.js';
import { untilTrue } from '../util/domWait.js';
import { A, withIcon } from './anchors.js';

/** The dialogs gflow may close: every `[role=dialog]` but the upload-rights one (only a human affirms rights). */
function closableDialogs(page: Page) {
  return page.locator(A.dialog).filter({ hasNot: page.locator(A.uploadTermsButton) });
}

/** True while the consent bar or a closable dialog is shown over the composer (one cheap read). */
export async function overlayShown(page: Page): Promise<boolean> {
  return (
    (await page
      .locator(`${A.consentBar}, ${A.dialog}`)
      .filter({ visible: true })
      .filter({ hasNot: page.locator(A.uploadTermsButton) })
      .count()
      .catch(() => 0)) > 0
  );
}

/**
 * Dismisses what sits over the composer (flow-wire §4): Google's consent bar (reject, or accept on
 * the notice-only variant), "Get started"/promo dialogs (their `close` icon button, else Escape).
 * The upload-rights dialog is never answered here: it affirms rights only a human can affirm.
 * After each round it waits for what it dismissed to go (no fixed pause).
 */
export async function dismissPageOverlays(page: Page, signal?: AbortSignal): Promise<void> {
  for (let round = 0; round < 4; round += 1) {
    throwIfAborted(signal, 'dismissing overlays');
    let acted = false;
    const bar = page.locator(A.consentBar).first();
    if (await bar.isVisible().catch(() => false)) {
      const reject = page.locator(A.consentReject).first();
      const target = (await reject.isVisible().catch(() => false)) ? reject : page.locator(A.consentAccept).first();
      await target.click({ timeout: 3_000 }).catch(() => undefined);
      acted = true;
    }
    const dialogs = closableDialogs(page);
    const count = await dialogs.count().catch(() => 0);
    for (let i = 0; i < count; i += 1) {
      const dialog = dialogs.nth(i);
      if (!(await dialog.isVisible().catch(() => false))) continue;
      const close = withIcon(page, dialog.locator('button'), 'close').first();
      if (await close.isVisible().catch(() => false)) await close.click({ timeout: 3_000 }).catch(() => undefined);
      else await page.keyboard.press('Escape');
      acted = true;
    }
    if (!acted) return;
    await untilTrue(page, async () => !(await overlayShown(page)), { timeoutMs: 1_000, signal });
  }
}

/** {@link dismissPageOverlays} inside an operation (its cancellation and closed-page checks). */
export async function dismissOverlays(ctx: OpContext): Promise<void> {
  ctx.check('dismissing overlays');
  await dismissPageOverlays(ctx.page, ctx.signal);
}
