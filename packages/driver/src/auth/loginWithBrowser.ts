import { BadParameterError } from '@gflow/errors';
import { loginChrome } from './loginChrome.js';
import { loginInternal } from './loginInternal.js';
import type { LoginOptions, LoginResult } from './loginTypes.js';

/**
 * `gflow auth login` (gflow-surfaces §1): 'chrome' runs the real Chrome as a plain subprocess and
 * waits for the human to close it; 'internal' drives a Playwright window and polls the session.
 * Success writes `.gflow_account` and `.gflow_browser_strategy` (0600) and returns the email; a
 * failed login writes no marker. Errors: timeout 12, browser rejected 14, account mismatch 38.
 */
export async function loginWithBrowser(options: LoginOptions): Promise<LoginResult> {
  if (!(options.timeoutMs > 0))
    throw new BadParameterError('The login timeout must be a positive number of milliseconds.');
  switch (options.strategy) {
    case 'chrome':
      return loginChrome(options);
    case 'internal':
      return loginInternal(options);
  }
}
