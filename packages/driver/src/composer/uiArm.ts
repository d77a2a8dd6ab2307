import { FlowAgentUiError, UiModeUnavailableError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { pollUntil, sleep } from '../util/abort.js';
import { A, withIcon } from './anchors.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';

export type UiArm = 'classic' | 'agent-mode' | 'agent-only';

/**
 * flow-wire §4 "UI arm detection": classic = the trigger is visible; agent mode = the chip is
 * pressed and the trigger hidden; agent-only = the trigger hidden and no chip at all.
 */
export async function detectArm(ctx: OpContext): Promise<UiArm> {
  const { page } = ctx;
  const trigger = page.locator(A.trigger).first();
  if (await trigger.isVisible().catch(() => false)) return 'classic';
  const chips = await page
    .locator(A.agentChip)
    .count()
    .catch(() => 0);
  return chips === 0 ? 'agent-only' : 'agent-mode';
}

/** Makes the classic composer usable: switches agent mode off; refuses agent-only (25, not retryable). */
export async function ensureClassic(ctx: OpContext): Promise<void> {
  const { page } = ctx;
  // The trigger can take a moment after readiness; give the arm a short settle.
  let arm = await detectArm(ctx);
  if (arm !== 'classic') {
    await sleep(600, ctx.signal);
    arm = await detectArm(ctx);
  }
  if (arm === 'classic') return;
  if (arm === 'agent-only') {
    throw new FlowAgentUiError(
      'This account has an agent-only Flow composer: the settings trigger is hidden and there is no agent-mode chip to switch back to the classic composer. Nothing was submitted.',
      {
        retryable: false,
        remediationHint:
          'Generate from the Flow web UI, or use text-to-image / text-to-video through the agent composer.',
      },
    );
  }
  ctx.logger.info('agent mode is on; switching it off');
  const panelClose = withIcon(page, page.locator(`${A.agentPanel} button`), 'close').first();
  if (await panelClose.isVisible().catch(() => false))
    await panelClose.click({ timeout: 3_000 }).catch(() => undefined);
  const chip = page.locator(`${A.agentChip}[aria-pressed="true"]`).first();
  if ((await chip.count()) === 0) {
    throw new UiModeUnavailableError(
      'The settings trigger is hidden but the agent-mode chip is not pressed; the classic composer is unreachable. Nothing was submitted.',
    );
  }
  try {
    await safeClick(ctx, chip, 'switching agent mode off');
  } catch (error) {
    const mapped = ctx.mapError(error, 'switching agent mode off');
    if (mapped !== error) throw mapped;
    throw await driftError(page, 'Could not click the agent-mode chip', A.agentChip, { cause: error });
  }
  const visible = await pollUntil(
    async () =>
      (await page
        .locator(A.trigger)
        .first()
        .isVisible()
        .catch(() => false))
        ? true
        : undefined,
    {
      timeoutMs: 20_000,
      intervalMs: 250,
      signal: ctx.signal,
    },
  );
  if (visible !== true)
    throw await driftError(
      page,
      'Agent mode was switched off but the settings trigger did not come back within 20 s',
      A.trigger,
    );
}
