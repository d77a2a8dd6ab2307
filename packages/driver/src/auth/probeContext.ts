import type { BrowserContext, Page } from 'playwright-core';
import { sleep, throwIfAborted } from '../util/abort.js';
import { withScratchPage } from '../session/scratchPage.js';
import { type DriverLogger, SILENT_LOGGER } from '../util/logger.js';
import { hasFlowOsidCookie, hasGoogleSessionCookie } from './cookieChecks.js';
import { mostFrequentEmail } from './emailFrequency.js';
import { type OracleVerdict, classifyOracleReply } from './oracleReply.js';
import { LABS_SESSION_URL, MYACCOUNT_URL, type SessionProbeResult } from './sessionProbeResult.js';

export interface ProbeContextOptions {
  readonly signal?: AbortSignal;
  readonly logger?: DriverLogger;
  /** Backoff before the 2nd and 3rd oracle attempt on 429/503/504 (default 1 s, 2 s). */
  readonly retryDelaysMs?: readonly number[];
  readonly navigationTimeoutMs?: number;
  /**
   * The error an outcome is for the caller, thrown while the probe's page is still open so the
   * page is photographed for the incident bundle (withScratchPage); null: the outcome is returned.
   */
  readonly failAs?: (result: SessionProbeResult) => Error | null;
}

/**
 * Probes an open context without spending credits or touching Flow's app: the labs NextAuth
 * oracle, then (when it says "no labs session" but a Google session exists) the migrated
 * fallback — SAPISID on .google.com and OSID on flow.google.com, then myaccount.google.com staying
 * on its own origin. Every GET is a top-level navigation of a scratch page, so it goes through the
 * browser's own network stack and cookie jar; Playwright's request API runs in Node and would
 * bypass the browser's proxy and host resolution.
 */
export async function probeContext(
  context: BrowserContext,
  options: ProbeContextOptions = {},
): Promise<SessionProbeResult> {
  throwIfAborted(options.signal, 'the session probe');
  const wait = { signal: options.signal, what: 'probing the Flow session' };
  return withScratchPage(context, null, wait, async (page) => {
    const result = await probeOnPage(context, page, options);
    const failure = options.failAs?.(result) ?? null;
    if (failure !== null) throw failure;
    return result;
  });
}

async function probeOnPage(
  context: BrowserContext,
  page: Page,
  options: ProbeContextOptions,
): Promise<SessionProbeResult> {
  const logger = options.logger ?? SILENT_LOGGER;
  const oracle = await askOracle(page, options);
  logger.debug('session probe: oracle', { kind: oracle.kind });
  if (oracle.kind === 'authenticated')
    return { outcome: 'authenticated', email: oracle.email.toLowerCase(), via: 'labs_session' };
  if (oracle.kind === 'error')
    return {
      outcome: 'verification_error',
      detail: `${oracle.detail}; a network or endpoint problem, which re-login does not fix.`,
    };
  const cookies = await context.cookies();
  if (!hasGoogleSessionCookie(cookies))
    return {
      outcome: 'no_session',
      detail: 'No Google session in this profile (no labs session and no SAPISID cookie).',
    };
  if (!hasFlowOsidCookie(cookies)) {
    return {
      outcome: 'google_session_only',
      detail: 'Signed in to Google, but not to the Flow app (no OSID cookie on flow.google.com).',
    };
  }
  return await myAccountFallback(page, options);
}

async function askOracle(page: Page, options: ProbeContextOptions): Promise<OracleVerdict> {
  // Backoffs between tries of an unreachable session endpoint (nothing says when it answers again).
  const delays = options.retryDelaysMs ?? [1_000, 2_000];
  const attempts = delays.length + 1;
  let verdict: OracleVerdict = { kind: 'error', retry: false, detail: 'the labs session endpoint was not reached' };
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    throwIfAborted(options.signal, 'the session probe');
    try {
      const response = await page.goto(LABS_SESSION_URL, {
        waitUntil: 'domcontentloaded',
        timeout: options.navigationTimeoutMs ?? 20_000,
      });
      if (response === null)
        verdict = { kind: 'error', retry: true, detail: 'the labs session endpoint gave no response' };
      else verdict = classifyOracleReply(response.status(), await response.text());
    } catch (error) {
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
      verdict = { kind: 'error', retry: true, detail: `the labs session endpoint could not be reached (${message})` };
    }
    if (verdict.kind !== 'error' || !verdict.retry) return verdict;
    const delay = delays[attempt];
    // The backoff chosen above (retryDelaysMs).
    if (delay !== undefined) await sleep(delay, options.signal);
  }
  return verdict.kind === 'error' ? { ...verdict, detail: `${verdict.detail} (${attempts} attempts)` } : verdict;
}

async function myAccountFallback(page: Page, options: ProbeContextOptions): Promise<SessionProbeResult> {
  throwIfAborted(options.signal, 'the session probe');
  try {
    await page.goto(MYACCOUNT_URL, { waitUntil: 'load', timeout: options.navigationTimeoutMs ?? 20_000 });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return { outcome: 'verification_error', detail: `myaccount.google.com could not be reached (${message}).` };
  }
  let host = '';
  try {
    host = new URL(page.url()).hostname;
  } catch {
    host = '';
  }
  if (host !== 'myaccount.google.com') {
    return {
      outcome: 'no_session',
      detail: 'The Google session has expired (myaccount.google.com redirected away from its origin).',
    };
  }
  const text = await page
    .evaluate(() => `${document.body?.innerText ?? ''}\n${document.documentElement.outerHTML}`)
    .catch(() => '');
  const email = mostFrequentEmail(text);
  if (email === null) {
    return {
      outcome: 'google_session_only',
      detail: 'Google account page loaded but named no email address, so the account could not be verified.',
    };
  }
  return { outcome: 'authenticated', email, via: 'google_account' };
}
