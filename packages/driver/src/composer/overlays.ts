import type { OpContext } from '../session/opContext.js';
import { sleep } from '../util/abort.js';
import { A, withIcon } from './anchors.js';

/**
 * Dismisses what sits over the composer (flow-wire §4): Google's consent bar (reject, or accept on
 * the notice-only variant), "Get started"/promo dialogs (their `close` icon button, else Escape).
 * The upload-rights dialog is never answered here: it affirms rights only a human can affirm.
 */
export async function dismissOverlays(ctx: OpContext, options: { settleMs?: number } = {}): Promise<void> {
  const { page } = ctx;
  if (options.settleMs !== undefined) await sleep(options.settleMs, ctx.signal);
  for (let round = 0; round < 4; round += 1) {
    ctx.check('dismissing overlays');
    let acted = false;
    const bar = page.locator(A.consentBar).first();
    if (await bar.isVisible().catch(() => false)) {
      const reject = page.locator(A.consentReject).first();
      const target = (await reject.isVisible().catch(() => false)) ? reject : page.locator(A.consentAccept).first();
      await target.click({ timeout: 3_000 }).catch(() => undefined);
      acted = true;
    }
    const dialogs = page.locator(A.dialog).filter({ hasNot: page.locator(A.uploadTermsButton) });
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
    await sleep(250, ctx.signal);
  }
}
