import type { BrowserContext } from 'playwright-core';
import { flowHostKind, flowLandingKind } from '../flow/hosts.js';
import { cancelled } from '../util/abort.js';
import { nextDomChange } from '../util/domWait.js';
import { SILENT_LOGGER } from '../util/logger.js';
import { launchProfile } from './launchProfile.js';
import { LOGIN_URL, type LoginOptions, type LoginResult } from './loginTypes.js';
import { probeContext } from './probeContext.js';
import { probeSession } from './probeSession.js';
import type { SessionProbeResult } from './sessionProbeResult.js';
import { SignInSteps } from './signInSteps.js';
import { finishLogin, loginTimeout } from './verifyLogin.js';

const PROBE_EVERY_MS = 3_000;
/** An app landing must hold this long before the session endpoint is asked (the signed-out hop to /about takes ~0.3 s). */
const APP_SETTLE_MS = 1_500;

/**
 * The 'internal' strategy: a Playwright persistent context (headed for people) opened at the labs
 * Flow URL; while the page is on a Flow host the session is probed every 3 s. The chooser row of
 * the expected account is clicked; autofill fills Google's form. A closed window gets one final
 * headless check.
 */
export async function loginInternal(options: LoginOptions): Promise<LoginResult> {
  const logger = options.logger ?? SILENT_LOGGER;
  const context = await launchProfile({
    profileDir: options.profileDir,
    headless: options.headless ?? false,
    ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
    ...(options.ignoreHTTPSErrors === undefined ? {} : { ignoreHTTPSErrors: options.ignoreHTTPSErrors }),
  });
  let closed = false;
  context.once('close', () => {
    closed = true;
  });
  let probe: SessionProbeResult | null = null;
  try {
    probe = await watchSignIn(context, options, () => closed);
  } finally {
    if (!closed) await context.close().catch(() => undefined);
  }
  if (probe === null) {
    logger.info('login: the window closed; checking the profile once more');
    probe = await probeSession({ ...options, skipMarkerCheck: true });
  }
  return finishLogin(options.profileDir, 'internal', probe, options.expectedAccount);
}

/** Returns the authenticated probe, or null when the window was closed first. */
async function watchSignIn(
  context: BrowserContext,
  options: LoginOptions,
  isClosed: () => boolean,
): Promise<SessionProbeResult | null> {
  const deadline = Date.now() + options.timeoutMs;
  const steps = new SignInSteps(options.expectedAccount ?? options.autofill?.email, options.autofill);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(LOGIN_URL, { waitUntil: 'domcontentloaded', timeout: 60_000 }).catch(() => undefined);
  let lastProbe = 0;
  let appSince: { url: string; at: number } | null = null;
  for (;;) {
    if (options.signal?.aborted === true) throw cancelled(options.signal, 'the login');
    if (isClosed() || page.isClosed()) return null;
    await steps.step(page);
    const url = page.url();
    const onApp = flowHostKind(url) !== 'none' && flowLandingKind(url) === 'app';
    if (!onApp) appSince = null;
    else if (appSince === null || appSince.url !== url) appSince = { url, at: Date.now() };
    if (appSince !== null && Date.now() - appSince.at >= APP_SETTLE_MS && Date.now() - lastProbe >= PROBE_EVERY_MS) {
      lastProbe = Date.now();
      const probe = await probeContext(context, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        retryDelaysMs: [],
      }).catch(() => null);
      if (probe?.outcome === 'authenticated') return probe;
    }
    if (Date.now() >= deadline) throw loginTimeout(options.timeoutMs);
    // A person signs in: the next look comes with the page's next change (or a quarter second).
    await nextDomChange(page, 250);
  }
}
