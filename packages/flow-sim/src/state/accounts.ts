import type { AccountInit, AccountView, Cohort } from '../types.js';

export interface Account extends AccountView {
  password: string | null;
  /** Bumped by signOut(): cookies minted before are no longer valid. */
  sessionGeneration: number;
}

export const DEFAULT_CREDITS = 1000;

export function newAccount(init: AccountInit): Account {
  const email = normalizeEmail(init.email);
  return {
    email,
    displayName: init.displayName ?? email.split('@')[0] ?? email,
    credits: init.credits ?? DEFAULT_CREDITS,
    cohort: init.cohort ?? 'classic',
    flowAccess: init.flowAccess ?? true,
    tier: init.tier ?? 'pro',
    labsSession: init.labsSession ?? true,
    uploadTermsAccepted: init.uploadTermsAccepted ?? false,
    pickerCommit: init.pickerCommit ?? 'click',
    consentBar: init.consentBar ?? 'none',
    promoDialog: init.promoDialog ?? false,
    lowerPriority: init.lowerPriority ?? false,
    password: init.password ?? null,
    sessionGeneration: 0,
  };
}

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)) throw new TypeError(`not an email address: ${email}`);
  return e;
}

export function viewOf(account: Account): AccountView {
  const { password: _p, sessionGeneration: _g, ...view } = account;
  return { ...view };
}

export const COHORTS: readonly Cohort[] = ['classic', 'agent_mode', 'agent_only'];
