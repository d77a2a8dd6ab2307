import { hasErrorCode, isGflowError, redactAndClip, toGflowError } from '@gflow/errors';
import { A } from '../composer/anchors.js';
import { closeSettings } from '../composer/settingsPane.js';
import type { OpContext } from '../session/opContext.js';
import { untilTrue } from '../util/domWait.js';
import type { AnchorRecorder, CapabilityProbe, CapabilityResult, ProbeScope } from './capability.js';

/**
 * What the generation path raises where the page is not what it expects: in a check, a finding
 * (`drifted`), not a failure. Anything else — a landing off Flow, a closed browser, a cancellation,
 * an expired session — ends the check.
 */
const DRIFT_CODES = [
  'ui-selector-drift',
  'configuration',
  'video-model-selection',
  'ui-mode-unavailable',
  'flow-agent-ui',
  'reference-not-found',
  'wire-format',
] as const;

/** A Playwright failure that means a control could not be used (not a bug of ours). */
const PLAYWRIGHT_MISS = /TimeoutError|locator\.|waiting for|not visible|intercepts pointer events/;

function driftDetail(ctx: OpContext, probe: CapabilityProbe, error: unknown): string | null {
  ctx.check(`checking ${probe.title}`);
  const mapped = ctx.mapError(error, `checking ${probe.title}`);
  if (isGflowError(mapped)) {
    if (!DRIFT_CODES.some((code) => hasErrorCode(mapped, code))) return null;
  } else if (!(mapped instanceof Error) || !PLAYWRIGHT_MISS.test(`${mapped.name} ${mapped.message}`)) return null;
  // A Playwright miss on a live page (a click that never landed) is a control gflow cannot use.
  const detail = isGflowError(mapped) ? toGflowError(mapped).detail : mapped.message;
  return redactAndClip(detail.split('\n')[0] ?? detail, 400);
}

/** Closes what a probe left open (the settings pane, the model menu, a picker), best effort. */
async function tidy(ctx: OpContext): Promise<void> {
  await closeSettings(ctx).catch(() => undefined);
  const open = (): Promise<boolean> =>
    ctx.page
      .locator(`${A.picker}, ${A.overlayPane}:has(${A.mentionTab}), ${A.overlayPane} ${A.menu}`)
      .filter({ visible: true })
      .count()
      .then((n) => n > 0)
      .catch(() => false);
  for (let i = 0; i < 3 && (await open()); i += 1) {
    await ctx.page.keyboard.press('Escape');
    await untilTrue(ctx.page, async () => !(await open()), { timeoutMs: 1_000, signal: ctx.signal });
  }
}

/** The result a probe gets without running: its composer is not on this account, or none was found. */
export function unreached(probe: CapabilityProbe, scope: Pick<ProbeScope, 'arm'>): CapabilityResult {
  const base = { id: probe.id, title: probe.title, expected: probe.expected };
  if (scope.arm === 'none')
    return { ...base, status: 'drifted', found: 'not reached: the page showed no composer gflow knows' };
  return {
    ...base,
    status: 'not_offered',
    found: `this account's composer is ${scope.arm === 'agent-only' ? 'agent-only' : 'the classic one'}`,
  };
}

/**
 * Runs one probe on the composer in front and says what it found; a probe for another composer is
 * not offered. The driver's drift and configuration errors become `drifted` with their detail (the
 * control named, and why it could not be used); anything else propagates.
 */
export async function runProbe(
  scope: ProbeScope,
  probe: CapabilityProbe,
  recorderFor: (probe: string) => AnchorRecorder,
  done: readonly CapabilityResult[],
  options: { readonly always?: boolean } = {},
): Promise<CapabilityResult[]> {
  if (options.always !== true && (scope.arm === 'none' || !probe.arms.includes(scope.arm)))
    return [unreached(probe, scope)];
  const base = { id: probe.id, title: probe.title, expected: probe.expected };
  const needed = probe.requires === undefined ? undefined : done.find((r) => r.id === probe.requires);
  if (needed !== undefined && needed.status !== 'ok')
    return [{ ...base, status: 'drifted', found: `not reached: it goes through ${needed.title}, which is not usable` }];
  scope.record = recorderFor(probe.id);
  const started = Date.now();
  try {
    const finding = await probe.run(scope);
    scope.ctx.logger.debug('capability checked', { id: probe.id, status: finding.status, ms: Date.now() - started });
    return [{ ...base, status: finding.status, found: finding.found }, ...(finding.details ?? [])];
  } catch (error) {
    const detail = driftDetail(scope.ctx, probe, error);
    if (detail === null) throw error;
    return [{ ...base, status: 'drifted', found: detail }];
  } finally {
    await tidy(scope.ctx);
  }
}
