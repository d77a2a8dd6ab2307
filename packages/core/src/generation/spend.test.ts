import { type Catalog, openCatalog } from '@gflow/catalog';
import type { SubmitQuote } from '@gflow/driver';
import { BudgetExceededError, WireFormatError, exitCodeOf, isRetryable, toErrorEnvelopeBody } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SpendControl,
  budgetOfRequest,
  budgetVerdict,
  creditBudgetOf,
  estimatedEnvelope,
  localDay,
  stricterBudget,
} from './spend.js';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const quote = (credits: number | null, balance: number | null = 100): SubmitQuote => ({
  credits,
  source: 'cost-line',
  balance,
  text: credits === null ? null : `Generating will use ${credits} credits`,
});

let catalog: Catalog;
beforeEach(() => {
  catalog = openCatalog({ path: ':memory:' });
});
afterEach(() => catalog.close());

function control(budget: Parameters<typeof creditBudgetOf>[0], options: { dryRun?: boolean; max?: number } = {}) {
  const operationId = catalog.operations.start({ profile: 'alice', command: 'video t2v', mode: 't2v' }).id;
  const spend = new SpendControl(
    { catalog, logger },
    {
      operationId,
      profile: 'alice',
      budget: creditBudgetOf(budget, options.max),
      dryRun: options.dryRun ?? false,
      signal: new AbortController().signal,
    },
  );
  return { spend, operationId };
}

async function refusal(promise: Promise<unknown>): Promise<BudgetExceededError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BudgetExceededError);
  return error as BudgetExceededError;
}

describe('the budgets of a call', () => {
  it('max_credits only lowers the configured cap', () => {
    expect(creditBudgetOf({ maxCreditsPerCall: 50 }, 20)).toMatchObject({
      max_credits_per_call: 20,
      per_call_source: 'max_credits',
    });
    expect(creditBudgetOf({ maxCreditsPerCall: 50 }, 80)).toMatchObject({
      max_credits_per_call: 50,
      per_call_source: 'GFLOW_CLI_MAX_CREDITS_PER_CALL',
    });
    expect(creditBudgetOf({}, 80)).toMatchObject({ max_credits_per_call: 80, per_call_source: 'max_credits' });
    expect(creditBudgetOf({ dailyCreditBudget: 20 })).toEqual({
      max_credits_per_call: null,
      per_call_source: null,
      daily_credit_budget: 20,
    });
  });

  it("a worker's own settings make a row's budgets stricter, never looser", () => {
    const row = creditBudgetOf({ maxCreditsPerCall: 30, dailyCreditBudget: 100 });
    expect(stricterBudget(row, creditBudgetOf({}))).toEqual(row);
    expect(stricterBudget(row, creditBudgetOf({ dailyCreditBudget: 20 }))).toMatchObject({ daily_credit_budget: 20 });
    const carried = { input: { max_credits: 5 }, credit_budget: row };
    expect(budgetOfRequest({}, carried)).toMatchObject({ max_credits_per_call: 5, daily_credit_budget: 100 });
    // The worker's own daily budget is stricter than none.
    const open = { input: {}, credit_budget: creditBudgetOf({}) };
    expect(budgetOfRequest({ dailyCreditBudget: 7 }, open)).toMatchObject({ daily_credit_budget: 7 });
  });

  it('verdicts: unreadable under any budget, above the cap, past the day', () => {
    const none = creditBudgetOf({});
    expect(budgetVerdict(none, null, 0)).toBeNull();
    expect(budgetVerdict(creditBudgetOf({ dailyCreditBudget: 20 }), null, 0)).toBe('unreadable_quote');
    expect(budgetVerdict(creditBudgetOf({ maxCreditsPerCall: 10 }), 12, 0)).toBe('per_call');
    expect(budgetVerdict(creditBudgetOf({ dailyCreditBudget: 20 }), 12, 12)).toBe('daily');
    expect(budgetVerdict(creditBudgetOf({ dailyCreditBudget: 24 }), 12, 12)).toBeNull();
  });

  it('the local day is the machine calendar date', () => {
    expect(localDay(new Date(2026, 2, 4, 23, 59))).toBe('2026-03-04');
    expect(localDay(new Date(2026, 0, 1, 0, 0))).toBe('2026-01-01');
  });
});

describe('the submit hook', () => {
  it('without budgets: submits and reserves the quote in the ledger; an unreadable one too', async () => {
    const { spend, operationId } = control({});
    expect(await spend.hook(quote(12))).toBe('submit');
    expect(catalog.operations.get(operationId)).toMatchObject({ creditsQuoted: 12, creditState: 'reserved' });
    expect(spend.envelopeFields()).toEqual({ credits_quoted: 12, credits_spent: null });
    const other = control({});
    expect(await other.spend.hook(quote(null))).toBe('submit');
    expect(catalog.operations.get(other.operationId)).toMatchObject({ creditsQuoted: null, creditState: 'reserved' });
  });

  it("the daily budget: the second 12-credit video of the day is refused at 20, with the day's total", async () => {
    expect(await control({ dailyCreditBudget: 20 }).spend.hook(quote(12))).toBe('submit');
    const second = control({ dailyCreditBudget: 20 });
    const error = await refusal(second.spend.hook(quote(12)));
    expect(exitCodeOf(error)).toBe(40);
    expect(isRetryable(error)).toBe(false);
    expect(error.remediationHint).toContain('GFLOW_CLI_DAILY_CREDIT_BUDGET');
    expect(error.remediationHint).toContain('12 credits of 20');
    expect(error.extensions).toMatchObject({ budget: 'daily', today_total: 12, credits_quoted: 12, limit: 20 });
    expect(catalog.operations.get(second.operationId)?.creditState).toBe('released');
    expect(toErrorEnvelopeBody(error)).toMatchObject({ type: 'https://gflow.dev/errors/budget-exceeded' });
    // An 8-credit one still fits.
    expect(await control({ dailyCreditBudget: 20 }).spend.hook(quote(8))).toBe('submit');
  });

  it('the per-call cap (and max_credits) refuses above it, allows at it', async () => {
    const error = await refusal(control({ maxCreditsPerCall: 10 }).spend.hook(quote(12)));
    expect(error.extensions).toMatchObject({
      budget: 'per_call',
      limit: 10,
      setting: 'GFLOW_CLI_MAX_CREDITS_PER_CALL',
    });
    const lowered = await refusal(control({ maxCreditsPerCall: 50 }, { max: 11 }).spend.hook(quote(12)));
    expect(lowered.extensions['setting']).toBe('max_credits (--max-credits)');
    expect(await control({ maxCreditsPerCall: 12 }).spend.hook(quote(12))).toBe('submit');
  });

  it('fails closed: an unreadable quote under a budget is refused', async () => {
    const { spend, operationId } = control({ dailyCreditBudget: 1000 });
    const error = await refusal(spend.hook(quote(null)));
    expect(error.extensions).toMatchObject({ budget: 'unreadable_quote', credits_quoted: null });
    expect(error.detail).toContain('fail closed');
    expect(catalog.operations.get(operationId)?.creditState).toBe('released');
  });

  it('a dry run stops, records an estimate that does not count, and says what a submit would meet', async () => {
    await control({}).spend.hook(quote(12));
    const { spend, operationId } = control({ dailyCreditBudget: 20 }, { dryRun: true });
    expect(await spend.hook(quote(12))).toBe('stop');
    expect(catalog.operations.get(operationId)?.creditState).toBe('estimated');
    expect(catalog.credits.dayTotal('alice', localDay())).toBe(12);
    const envelope = estimatedEnvelope(spend, {
      taskId: 't-1',
      mode: 't2v',
      params: { prompt: 'waves', model: 'omni_flash' },
      projectId: 'p-1',
      arm: 'classic',
      stopped: 'before-submit',
      uploads: [{ displayName: 'a-1234abcd.png', mediaId: 'm-1' }],
      sandbox: true,
    });
    expect(envelope).toMatchObject({
      status: 'estimated',
      credits_quoted: 12,
      balance: 100,
      plan: { prompt: 'waves', model: 'omni_flash', affordable: true, quote_source: 'cost-line', submitted: 'nothing' },
      budget: { daily_credit_budget: 20, today_quoted: 12, would_refuse: 'daily' },
      uploads: [{ display_name: 'a-1234abcd.png', media_id: 'm-1' }],
      sandbox: true,
    });
  });

  it('a failure before the click releases the reservation; one after it keeps it', async () => {
    const before = control({ dailyCreditBudget: 100 });
    await before.spend.hook(quote(12));
    before.spend.settleFailure(new Error('the page closed'), false);
    expect(catalog.operations.get(before.operationId)?.creditState).toBe('released');
    const after = control({ dailyCreditBudget: 100 });
    await after.spend.hook(quote(12));
    after.spend.settleFailure(new Error('lost reply'), true);
    expect(catalog.operations.get(after.operationId)?.creditState).toBe('reserved');
    const blocked = control({ dailyCreditBudget: 100 });
    await blocked.spend.hook(quote(12));
    // The submit guard stopped the body in the browser: nothing reached Flow.
    blocked.spend.settleFailure(new WireFormatError('x', { extensions: { may_have_spent: false } }), true);
    expect(catalog.operations.get(blocked.operationId)?.creditState).toBe('released');
  });

  it('measures spend from a balance read after the run, only when the balance dropped', async () => {
    const { spend, operationId } = control({});
    await spend.hook(quote(12, 100));
    const session = (credits: number) =>
      ({ context: { __balance: credits } }) as unknown as Parameters<SpendControl['measure']>[0];
    // readCredits opens a page in the context; a context that cannot is unmeasured, never a failure.
    expect(await spend.measure(session(88), 'video')).toBeNull();
    expect(catalog.operations.get(operationId)?.creditsSpent).toBeNull();
  });
});
