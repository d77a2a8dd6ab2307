import type { BrowserContext, Locator, Page } from 'playwright-core';
import { FlowAppError, WireFormatError } from '@gflow/errors';
import { FLOW_ORIGIN } from '../flow/hosts.js';
import { assertOnFlowApp, waitForAnchor, withLigature } from '../projects/flowPage.js';
import { withScratchPage } from '../session/scratchPage.js';
import { type DriverLogger, SILENT_LOGGER } from '../util/logger.js';
import { parseCreditsText } from './creditsText.js';
import { explainPublicLanding } from './publicLanding.js';

/** The balance (seed gflow_get_credits): the tier fields are always null on flow.google.com. */
export interface CreditsBalance {
  readonly credits: number;
  readonly subscription_credits: null;
  readonly user_paygate_tier: null;
  readonly service_tier: null;
  readonly sku: null;
}

export interface ReadCreditsOptions {
  readonly signal?: AbortSignal;
  readonly logger?: DriverLogger;
  /** How long the app may take to show its balance (default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * [U] The header's credits control: a button in `flow-app-header` holding the `toll` ligature,
 * whose text is the balance the app loaded (the number Flow's account menu shows). flow-wire does
 * not document where flow.google.com shows its balance; this is the simulator's contract.
 */
export function creditsControl(page: Page): Locator {
  return withLigature(page, page.locator('flow-app-header button'), 'toll');
}

async function textWithoutIcons(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const clone = el.cloneNode(true) as Element;
    for (const icon of Array.from(clone.querySelectorAll('mat-icon'))) icon.remove();
    return clone.textContent ?? '';
  });
}

/**
 * Opens https://flow.google.com/ in the context and reads the balance the app itself shows. A
 * sign-in landing (or /about with a dead Google session) → AuthExpiredError (3); /about with a live
 * session or an app that never shows a balance → FlowAppError (31); /unavailable →
 * FlowAccessUnavailableError (39); a balance in an unexpected shape → WireFormatError (7).
 */
export async function readCredits(context: BrowserContext, options: ReadCreditsOptions = {}): Promise<CreditsBalance> {
  const logger = options.logger ?? SILENT_LOGGER;
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  // A page of its own, photographed if the read fails (the incident bundle).
  return withScratchPage(context, `${FLOW_ORIGIN}/`, { ...wait, what: 'reading the credit balance' }, async (page) => {
    const control = creditsControl(page);
    let shown: boolean;
    try {
      shown = await waitForAnchor(page, control, wait);
    } catch (error) {
      throw await explainPublicLanding(context, error);
    }
    if (!shown) {
      throw new FlowAppError('Flow loaded but never showed a credit balance (no credits control in the app header).', {
        remediationHint:
          'Open https://flow.google.com in Chrome with this profile and check that the app loads; this is not a session problem.',
      });
    }
    assertOnFlowApp(page);
    const text = await textWithoutIcons(control.first());
    const reading = parseCreditsText(text);
    if ('error' in reading) throw new WireFormatError(`Flow's balance is in an unexpected shape: ${reading.error}.`);
    logger.debug('credits read', { credits: reading.credits });
    return {
      credits: reading.credits,
      subscription_credits: null,
      user_paygate_tier: null,
      service_tier: null,
      sku: null,
    };
  });
}
