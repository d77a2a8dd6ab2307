import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';

/**
 * What the canary says of one capability gflow depends on: `ok` (it is there and answers as the
 * generation path expects), `drifted` (it is there in another form, or gone, and a paid run would
 * fail at it), `not_offered` (this account does not have it: an agent-only composer has no
 * settings pane, an account without agent mode has no chip, gflow does not drive it yet).
 */
/**
 * How long a probe's click may take to land (Playwright's wait for the control to be visible,
 * stable and not covered). A check reads the page once, so a click a loaded machine is slow to
 * land must not read as drift: twice a run's limit (safeClick's 5 s); a control that is gone is
 * found missing before any click.
 */
export const PROBE_CLICK_MS = 10_000;

export type CapabilityStatus = 'ok' | 'drifted' | 'not_offered';

/** One line of the canary's report. */
export interface CapabilityResult {
  /** Stable id: `settings.video.aspect`, `model.video.veo_3_1_lite`, … */
  readonly id: string;
  readonly title: string;
  readonly status: CapabilityStatus;
  /** What gflow expects, in words: anchors, ligatures, shapes. */
  readonly expected: string;
  /** What the page showed: a confirmation, what stands there instead, or why it is not offered. Never user content. */
  readonly found: string;
}

/** What one probe found; `details` are finer results it reads on the way (one per model of the table). */
export interface ProbeFinding {
  readonly status: CapabilityStatus;
  readonly found: string;
  readonly details?: readonly CapabilityResult[];
}

/** The composer in front, as the first probe settles it. */
export type ComposerArm = 'classic' | 'agent-only' | 'none';

/** Records an anchor's redacted outer HTML into the capture bundle (a no-op without `--capture`). */
export type AnchorRecorder = (anchor: string, locator: Locator) => Promise<void>;

/** What a probe works with: the operation's page and tap, the composer in front, and what to put back. */
export interface ProbeScope {
  readonly ctx: OpContext;
  arm: ComposerArm;
  /** Records under the running probe's id. */
  record: AnchorRecorder;
  /** Puts back what the probes changed (the settings pane's mode and submode), last first. */
  readonly restore: Array<() => Promise<void>>;
}

/**
 * One capability check. A probe uses the generation path's own anchors and functions (never a
 * second set of selectors), changes nothing it does not put back, and never submits: a drift it
 * meets is a finding (the runner turns the driver's drift and configuration errors into
 * `drifted`), a page that left Flow is an error that ends the check.
 */
export interface CapabilityProbe {
  readonly id: string;
  readonly title: string;
  readonly expected: string;
  /** The composers it applies to; on any other it is `not_offered`. */
  readonly arms: readonly Exclude<ComposerArm, 'none'>[];
  /** A capability it goes through (`settings.pane`): when that one is not ok, this one is not reached. */
  readonly requires?: string;
  run(scope: ProbeScope): Promise<ProbeFinding>;
}

export const ok = (found: string, details?: readonly CapabilityResult[]): ProbeFinding => ({
  status: 'ok',
  found,
  ...(details === undefined ? {} : { details }),
});
export const drifted = (found: string, details?: readonly CapabilityResult[]): ProbeFinding => ({
  status: 'drifted',
  found,
  ...(details === undefined ? {} : { details }),
});
export const notOffered = (found: string): ProbeFinding => ({ status: 'not_offered', found });
