import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { exitCodeOf } from '@gflow/errors';
import { readCredits } from '../src/account/readCredits.js';
import { useSimBrowser } from '@gflow/testkit/browser';

const h = useSimBrowser();
const contexts: BrowserContext[] = [];
async function ctxFor(email: string): Promise<BrowserContext> {
  const ctx = await h.signedInContext(email, 'pw');
  contexts.push(ctx);
  return ctx;
}

beforeAll(() => {
  for (const email of ['rich@example.com', 'gone@example.com', 'noflow@example.com', 'recheck@example.com'])
    h.sim.scenario.createAccount({ email, password: 'pw', credits: 1234 });
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
});

describe('readCredits', () => {
  it('reads the balance the app shows, and follows a change', async () => {
    const ctx = await ctxFor('rich@example.com');
    expect(await readCredits(ctx)).toEqual({
      credits: 1234,
      subscription_credits: null,
      user_paygate_tier: null,
      service_tier: null,
      sku: null,
    });
    h.sim.scenario.setCredits('rich@example.com', 87);
    expect((await readCredits(ctx)).credits).toBe(87);
    h.sim.scenario.setCredits('rich@example.com', 12500);
    h.sim.scenario.setLocale('de-DE');
    try {
      expect((await readCredits(ctx)).credits).toBe(12500);
    } finally {
      h.sim.scenario.setLocale('en-US');
    }
  });

  it('is exit 3 for a signed-out profile', async () => {
    const ctx = await ctxFor('gone@example.com');
    h.sim.scenario.signOut('gone@example.com');
    const error = await readCredits(ctx, { timeoutMs: 15_000 }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(3);
  });

  it('is exit 39 for an account without Flow access', async () => {
    const ctx = await ctxFor('noflow@example.com');
    h.sim.scenario.setFlowAccess('noflow@example.com', false);
    const error = await readCredits(ctx, { timeoutMs: 15_000 }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(39);
  });

  it('is exit 31, not retryable, at /about with a live session (identity re-check)', async () => {
    const ctx = await ctxFor('recheck@example.com');
    h.sim.scenario.setFailure('recheck@example.com', 'identity_recheck');
    const error = await readCredits(ctx, { timeoutMs: 15_000 }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(31);
    expect((error as { retryableOverride?: boolean }).retryableOverride).toBe(false);
  });
});
