import type { BrowserContext } from 'playwright-core';
import { AuthExpiredError, type GflowError, isGflowError } from '@gflow/errors';
import { hasGoogleSessionCookie } from '../auth/cookieChecks.js';
import { MYACCOUNT_URL } from '../auth/sessionProbeResult.js';

/**
 * Flow's public /about page has two measured causes (flow-wire §1): a signed-out browser, and a
 * pending Google identity re-check with healthy cookies. The first is a session problem (exit 3,
 * renewable or fixed by a login); the second is FlowAppError (31, not retryable). This tells them
 * apart without touching Flow: no SAPISID, or myaccount.google.com leaving its origin, means the
 * Google session itself is gone. Any other error passes through unchanged.
 */
export async function explainPublicLanding(context: BrowserContext, error: unknown): Promise<unknown> {
  if (!isGflowError(error) || error.code !== 'flow-app' || !/\/about/.test(error.detail)) return error;
  if (!hasGoogleSessionCookie(await context.cookies()))
    return signedOut(error, 'the profile holds no Google session cookie');
  const page = await context.newPage();
  try {
    await page.goto(MYACCOUNT_URL, { waitUntil: 'domcontentloaded', timeout: 20_000 });
    if (new URL(page.url()).hostname !== 'myaccount.google.com')
      return signedOut(error, 'the Google session has expired');
  } catch {
    return error;
  } finally {
    await page.close().catch(() => undefined);
  }
  return error;
}

function signedOut(cause: GflowError, why: string): AuthExpiredError {
  return new AuthExpiredError(
    `Flow sent the browser to its public /about page and ${why}: the profile is signed out.`,
    {
      cause,
      remediationHint:
        "Renew the session (gflow auth renew / refresh=true) or run 'gflow auth login' in your local terminal.",
    },
  );
}
