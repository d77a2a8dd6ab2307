import { InsufficientCreditsError } from '@gflow/errors';
import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { A, withIcon } from './anchors.js';
import { driftError } from './drift.js';

export function submitButton(ctx: OpContext): Locator {
  return withIcon(ctx.page, ctx.page.locator('button'), 'arrow_forward').filter({ visible: true }).first();
}

async function creditsWarning(ctx: OpContext): Promise<boolean> {
  return ctx.page
    .locator(A.creditsWarning)
    .filter({ visible: true })
    .count()
    .then((n) => n > 0)
    .catch(() => false);
}

/**
 * Waits (≤5 s) for the arrow_forward submit to enable. A credit shortfall replaces it with
 * `button.prompt-warning-button` → InsufficientCreditsError before anything is spent.
 */
export async function waitForSubmitReady(ctx: OpContext): Promise<Locator> {
  const button = submitButton(ctx);
  const state = await untilDom(
    ctx.page,
    async () => {
      ctx.check('waiting for the submit button');
      if (await creditsWarning(ctx)) return 'credits' as const;
      if ((await button.count()) > 0 && (await button.isEnabled().catch(() => false))) return 'ready' as const;
      return undefined;
    },
    { timeoutMs: 5_000, signal: ctx.signal },
  );
  if (state === 'credits') {
    throw new InsufficientCreditsError(
      'Flow shows its insufficient-credits warning in place of the submit button. Nothing was submitted.',
    );
  }
  if (state !== 'ready')
    throw await driftError(
      ctx.page,
      'The submit button (arrow_forward) did not become enabled within 5 s',
      A.promptBox,
    );
  return button;
}
