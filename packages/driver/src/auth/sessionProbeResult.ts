/** What a credit-free session probe found (flow-wire §2 "Session probes"; seed gflow_auth_status). */
export type SessionProbeFailure =
  'no_session' | 'google_session_only' | 'verification_error' | 'profile_marker_missing' | 'cookie_store_unreadable';

export type SessionProbeResult =
  | {
      readonly outcome: 'authenticated';
      readonly email: string;
      /** Which check proved it: the labs NextAuth oracle or the migrated myaccount fallback. */
      readonly via: 'labs_session' | 'google_account';
    }
  | { readonly outcome: SessionProbeFailure; readonly detail: string };

export const LABS_SESSION_URL = 'https://labs.google/fx/api/auth/session';
export const MYACCOUNT_URL = 'https://myaccount.google.com/';
