import type { BrowserContext } from 'playwright-core';
import { isGflowError } from '@gflow/errors';
import { readProfileMarkers } from '@gflow/flow-facts';
import { FLOW_ORIGIN } from '../flow/hosts.js';
import { openFlowPage, waitForAnchor } from '../projects/flowPage.js';
import type { DriverLogger } from '../util/logger.js';
import { headlessLaunchFor, launchProfile } from './launchProfile.js';
import { probeContext } from './probeContext.js';
import type { SessionProbeResult } from './sessionProbeResult.js';

export type RenewResult =
  | { readonly outcome: 'renewed'; readonly email: string }
  | {
      readonly outcome: 'needs_human';
      /** signed_out: log in again; identity_recheck: "Confirm it's you" in Chrome; no_flow_access: the plan. */
      readonly reason: 'signed_out' | 'identity_recheck' | 'no_flow_access' | 'verification_error';
      readonly detail: string;
    };

export interface RenewSessionOptions {
  readonly profileDir: string;
  readonly executablePath?: string;
  readonly channel?: 'chrome';
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly signal?: AbortSignal;
  readonly logger?: DriverLogger;
  /** How long flow.google.com may take to settle (default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * Re-establishes a session headlessly when possible (seed gflow_get_credits refresh=true): opens
 * flow.google.com in the profile so Google's passive sign-in hop can refresh the app's cookies,
 * then probes again. Says when a human is needed instead of looping: a dead Google session, a
 * pending identity re-check (/about with a live session) or no Flow access.
 */
export async function renewSession(options: RenewSessionOptions): Promise<RenewResult> {
  const markers = await readProfileMarkers(options.profileDir);
  const launch = headlessLaunchFor(options, markers.strategy);
  const context = await launchProfile(launch);
  try {
    return await renewInContext(context, options);
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** The renewal steps on an open context (exported for a caller that already holds one). */
export async function renewInContext(
  context: BrowserContext,
  options: { signal?: AbortSignal; logger?: DriverLogger; timeoutMs?: number } = {},
): Promise<RenewResult> {
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  let landingCode: string | null = null;
  const page = await openFlowPage(context, `${FLOW_ORIGIN}/`, wait);
  try {
    await waitForAnchor(page, page.locator('flow-app-header'), wait);
  } catch (error) {
    if (!isGflowError(error)) throw error;
    landingCode = error.code;
  } finally {
    await page.close().catch(() => undefined);
  }
  options.logger?.debug('renew: flow.google.com settled', { landing: landingCode ?? 'app' });
  const probe: SessionProbeResult = await probeContext(
    context,
    options.signal === undefined ? {} : { signal: options.signal },
  );
  if (landingCode === 'flow-access-unavailable') {
    return {
      outcome: 'needs_human',
      reason: 'no_flow_access',
      detail:
        'This Google account cannot reach Flow (flow.google.com/unavailable); only the account owner can fix that.',
    };
  }
  if (probe.outcome === 'verification_error')
    return { outcome: 'needs_human', reason: 'verification_error', detail: probe.detail };
  if (probe.outcome !== 'authenticated') {
    return {
      outcome: 'needs_human',
      reason: 'signed_out',
      detail: `${probe.detail} A human must sign in again ('gflow auth login').`,
    };
  }
  if (landingCode === 'flow-app') {
    return {
      outcome: 'needs_human',
      reason: 'identity_recheck',
      detail:
        'Google still holds Flow at its public /about page although the session is live: complete the "Confirm it\'s you" step in Chrome with this profile.',
    };
  }
  if (landingCode === 'auth-expired')
    return { outcome: 'needs_human', reason: 'signed_out', detail: 'Flow still sends this profile to a sign-in page.' };
  return { outcome: 'renewed', email: probe.email };
}
