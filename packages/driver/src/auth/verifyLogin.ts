import { AuthLoginTimeoutError, FlowAccountChooserError, type GflowError } from '@gflow/errors';
import type { LoginStrategy } from '@gflow/flow-facts';
import { sameAccount } from './emailFrequency.js';
import { writeProfileMarkers } from './markers.js';
import { sessionProbeError } from './sessionProbeError.js';
import type { SessionProbeResult } from './sessionProbeResult.js';
import type { LoginResult } from './loginTypes.js';

/**
 * Turns the final probe of a login into its result: an authenticated session for the expected
 * account writes both markers (0600) and returns the email; another account is
 * FlowAccountChooserError (38) and writes nothing; no session is the probe's own error.
 */
export async function finishLogin(
  profileDir: string,
  strategy: LoginStrategy,
  probe: SessionProbeResult,
  expectedAccount: string | undefined,
): Promise<LoginResult> {
  if (probe.outcome !== 'authenticated') {
    throw sessionProbeError(probe) ?? new AuthLoginTimeoutError('The login did not finish.');
  }
  const mismatch = accountMismatch(probe.email, expectedAccount);
  if (mismatch !== null) throw mismatch;
  await writeProfileMarkers(profileDir, probe.email, strategy);
  return { email: probe.email, strategy };
}

export function accountMismatch(email: string, expectedAccount: string | undefined): GflowError | null {
  if (expectedAccount === undefined || sameAccount(email, expectedAccount)) return null;
  return new FlowAccountChooserError(
    `The browser signed in as a different Google account than --account asked for; nothing was saved.`,
    {
      extensions: { expected_account: expectedAccount.trim().toLowerCase(), signed_in_account: email },
    },
  );
}

export function loginTimeout(timeoutMs: number): AuthLoginTimeoutError {
  return new AuthLoginTimeoutError(`Sign-in did not finish within ${Math.round(timeoutMs / 1000)} s.`);
}
