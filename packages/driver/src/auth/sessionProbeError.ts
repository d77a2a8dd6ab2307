import {
  AuthExpiredError,
  AuthMissingError,
  CookieStoreUnreadableError,
  type GflowError,
  ProfileMarkerMissingError,
  VerificationError,
} from '@gflow/errors';
import type { SessionProbeResult } from './sessionProbeResult.js';

/**
 * The error for a probe outcome (seed gflow_auth_status), or null when authenticated:
 * verification_error → 503 retryable; profile_marker_missing and cookie_store_unreadable → 409;
 * any other unauthenticated outcome is a dead session → 401.
 */
export function sessionProbeError(result: SessionProbeResult): GflowError | null {
  const extensions = { probe_outcome: result.outcome };
  switch (result.outcome) {
    case 'authenticated':
      return null;
    case 'verification_error':
      return new VerificationError(result.detail, { extensions });
    case 'profile_marker_missing':
      return new ProfileMarkerMissingError(result.detail, {
        extensions,
        remediationHint:
          "Re-run 'gflow auth login --browser chrome' for this profile. It is not a network problem; a retry or a plain 'gflow auth login' does not help.",
      });
    case 'cookie_store_unreadable':
      return new CookieStoreUnreadableError(result.detail, {
        extensions,
        remediationHint:
          "The profile's cookie database is unreadable (a local file fault, not the network): close any Chrome window using this profile, then re-run 'gflow auth login' for it.",
      });
    case 'no_session':
      return new AuthMissingError(result.detail, {
        extensions,
        remediationHint: "Run 'gflow auth login' in your local terminal.",
      });
    case 'google_session_only':
      return new AuthExpiredError(result.detail, {
        extensions,
        remediationHint:
          "Run 'gflow auth login' in your local terminal. If it keeps saying this, open https://flow.google.com on that account: a landing on /unavailable means the account has no Flow access.",
      });
  }
}
