import { FlowAgentUiError, UiModeUnavailableError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
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

/** The settled arm: a moment after readiness the trigger can still be on its way. */
export async function settleArm(ctx: OpContext): Promise<UiArm> {
  const classic = await untilDom(ctx.page, async () => ((await detectArm(ctx)) === 'classic' ? true : undefined), {
    timeoutMs: 1_000,
    signal: ctx.signal,
  });
  return classic === true ? 'classic' : detectArm(ctx);
}

/** An agent-only composer gflow cannot drive either: no classic arm and no agent prompt box it knows (25). */
export function unknownAgentComposer(): FlowAgentUiError {
  return new FlowAgentUiError(
    'This account has an agent-only Flow composer, but not one gflow recognises: the settings trigger is hidden, there is no agent-mode chip and no agent prompt box. Nothing was submitted.',
    { retryable: false, remediationHint: 'Generate from the Flow web UI, and file an issue with the incident bundle.' },
  );
}

/** Agent mode is on (the chip pressed): switch it off and wait for the classic trigger (flow-wire §4, #749). */
export async function leaveAgentMode(ctx: OpContext): Promise<void> {
  const { page } = ctx;
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
  const visible = await untilDom(
    ctx.page,
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
