import type { FlowSession, SubmitDecision, SubmitQuote } from '@gflow/driver';
import { BudgetExceededError, isGflowError } from '@gflow/errors';
import type { GenerationResult } from './schemas.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';

/**
 * Spend control (issue 24): the credit budgets a generation runs under, and the hook the driver
 * calls with Flow's quote between configuring the composer and the click that spends. Core decides
 * (dry run, per-call cap, daily budget); the driver only reads. The ledger is the catalog's
 * operations table (`catalog.credits`): a daily budget is decided in one BEGIN IMMEDIATE
 * transaction, so processes racing at the cap cannot both pass.
 */

const PER_CALL_ENV = 'GFLOW_CLI_MAX_CREDITS_PER_CALL';
const DAILY_ENV = 'GFLOW_CLI_DAILY_CREDIT_BUDGET';

/** The budgets of one generation, as the process that queued it resolved them. */
export interface CreditBudget {
  /** The per-submit cap: the lower of GFLOW_CLI_MAX_CREDITS_PER_CALL and the call's max_credits. */
  readonly max_credits_per_call: number | null;
  /** What set that cap (the refusal's hint names it). */
  readonly per_call_source: 'GFLOW_CLI_MAX_CREDITS_PER_CALL' | 'max_credits' | null;
  /** GFLOW_CLI_DAILY_CREDIT_BUDGET: the profile's cap for the local day. */
  readonly daily_credit_budget: number | null;
}

/** The budgets of a call: the settings, lowered (never raised) by the call's own `max_credits`. */
export function creditBudgetOf(
  settings: Pick<ResolvedSettings, 'maxCreditsPerCall' | 'dailyCreditBudget'>,
  maxCredits?: number,
): CreditBudget {
  const configured = settings.maxCreditsPerCall ?? null;
  const lowered = maxCredits !== undefined && (configured === null || maxCredits < configured);
  const cap = lowered ? maxCredits : configured;
  return {
    max_credits_per_call: cap,
    per_call_source: cap === null ? null : lowered ? 'max_credits' : PER_CALL_ENV,
    daily_credit_budget: settings.dailyCreditBudget ?? null,
  };
}

/** The stricter of two budgets, field by field (a worker's own settings can lower a row's, never raise them). */
export function stricterBudget(a: CreditBudget, b: CreditBudget): CreditBudget {
  const lower = (x: number | null, y: number | null): number | null =>
    x === null ? y : y === null ? x : Math.min(x, y);
  const perCall = lower(a.max_credits_per_call, b.max_credits_per_call);
  return {
    max_credits_per_call: perCall,
    per_call_source:
      perCall === null ? null : perCall === a.max_credits_per_call ? a.per_call_source : b.per_call_source,
    daily_credit_budget: lower(a.daily_credit_budget, b.daily_credit_budget),
  };
}

/** The local calendar day (`YYYY-MM-DD`) a quote counts toward: the machine's time zone. */
export function localDay(now: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Why a budget refuses a quote (or would, for a dry run); null when it passes. */
export type BudgetVerdict = 'per_call' | 'daily' | 'unreadable_quote' | null;

interface RefusalFacts {
  readonly verdict: Exclude<BudgetVerdict, null>;
  readonly quoted: number | null;
  readonly budget: CreditBudget;
  readonly profile: string;
  readonly day: string;
  readonly todayTotal: number;
}

function todayLine(facts: RefusalFacts): string {
  const cap = facts.budget.daily_credit_budget;
  return `Today's (${facts.day}) quoted total for profile ${facts.profile}: ${facts.todayTotal} credits${cap === null ? '' : ` of ${cap} (${DAILY_ENV})`}.`;
}

/** The budget-exceeded problem (exit 40, not retryable): raised before the click, nothing spent. */
export function budgetRefusal(facts: RefusalFacts): BudgetExceededError {
  const { verdict, quoted, budget } = facts;
  const settingNames = [
    ...(budget.max_credits_per_call === null ? [] : [budget.per_call_source ?? PER_CALL_ENV]),
    ...(budget.daily_credit_budget === null ? [] : [DAILY_ENV]),
  ];
  const setting =
    verdict === 'per_call'
      ? budget.per_call_source === 'max_credits'
        ? 'max_credits (--max-credits)'
        : PER_CALL_ENV
      : verdict === 'daily'
        ? DAILY_ENV
        : settingNames.join(' and ');
  const detail =
    verdict === 'per_call'
      ? `Flow quotes ${quoted} credits for this submit, above the per-call cap of ${budget.max_credits_per_call} (${setting}). Nothing was sent or spent.`
      : verdict === 'daily'
        ? `Flow quotes ${quoted} credits for this submit, which would take profile ${facts.profile}'s total for ${facts.day} from ${facts.todayTotal} to ${facts.todayTotal + (quoted ?? 0)}, past the daily budget of ${budget.daily_credit_budget} (${DAILY_ENV}). Nothing was sent or spent.`
        : `Flow showed no readable credit quote for this submit, and a budget is set (${setting}), so gflow refuses it (fail closed). Nothing was sent or spent.`;
  const hint =
    verdict === 'per_call'
      ? `Raise ${setting} (or drop --max-credits / max_credits) or pick a cheaper model, duration, resolution or count. ${todayLine(facts)}`
      : verdict === 'daily'
        ? `${todayLine(facts)} Raise ${DAILY_ENV}, pick a cheaper model, or wait for the next local day.`
        : `A budget needs the quote: unset ${setting} to generate without one (at your own risk), or check Flow's settings pane for its "Generating will use N credits" line. ${todayLine(facts)}`;
  return new BudgetExceededError(detail, {
    retryable: false,
    remediationHint: hint,
    extensions: {
      budget: verdict,
      setting,
      credits_quoted: quoted,
      ...(verdict === 'per_call' ? { limit: budget.max_credits_per_call } : {}),
      ...(verdict === 'daily' ? { limit: budget.daily_credit_budget } : {}),
      today_total: facts.todayTotal,
      day: facts.day,
      may_have_spent: false,
    },
  });
}

/** What a budget says about a quote, given the day's total so far (without this operation). */
export function budgetVerdict(budget: CreditBudget, quoted: number | null, todayTotal: number): BudgetVerdict {
  const any = budget.max_credits_per_call !== null || budget.daily_credit_budget !== null;
  if (quoted === null) return any ? 'unreadable_quote' : null;
  if (budget.max_credits_per_call !== null && quoted > budget.max_credits_per_call) return 'per_call';
  if (budget.daily_credit_budget !== null && todayTotal + quoted > budget.daily_credit_budget) return 'daily';
  return null;
}

export interface SpendControlOptions {
  readonly operationId: number;
  readonly profile: string;
  readonly budget: CreditBudget;
  readonly dryRun: boolean;
  readonly signal: AbortSignal;
}

/** One generation's spend control: the driver's hook, then what the envelope and the ledger say. */
export class SpendControl {
  /** What the driver read before the click (the last quote the hook was shown). */
  quote: SubmitQuote | null = null;
  /** A dry run's verdict (what a real submit would meet). */
  wouldRefuse: BudgetVerdict = null;
  todayBefore = 0;
  day = localDay();
  #reserved = false;
  spent: number | null = null;

  constructor(
    private readonly runtime: Pick<RuntimeServices, 'catalog' | 'logger'> & Partial<Pick<RuntimeServices, 'fleet'>>,
    readonly options: SpendControlOptions,
  ) {}

  /** The driver's `beforeSubmit`: stop (a dry run), refuse (throws budget-exceeded), or submit. */
  readonly hook = async (quote: SubmitQuote): Promise<SubmitDecision> => {
    const { catalog } = this.runtime;
    const { operationId, profile, budget } = this.options;
    this.quote = quote;
    this.day = localDay();
    // On a fleet the balance the page shows is what routes the pool's next video run.
    if (quote.balance !== null && quote.balance !== undefined) this.runtime.fleet?.noteBalance(profile, quote.balance);
    if (this.options.dryRun) {
      this.todayBefore = catalog.credits.dayTotal(profile, this.day);
      this.wouldRefuse = budgetVerdict(budget, quote.credits, this.todayBefore);
      catalog.credits.estimate(operationId, { day: this.day, quoted: quote.credits });
      return 'stop';
    }
    const facts = { quoted: quote.credits, budget, profile, day: this.day };
    const anyBudget = budget.max_credits_per_call !== null || budget.daily_credit_budget !== null;
    const overCap =
      quote.credits !== null && budget.max_credits_per_call !== null && quote.credits > budget.max_credits_per_call;
    const early = quote.credits === null && anyBudget ? 'unreadable_quote' : overCap ? 'per_call' : null;
    if (early !== null) {
      // An unreadable quote under a budget, or one above the per-call cap: refused before the ledger is asked.
      catalog.credits.refuse(operationId, { day: this.day, quoted: quote.credits });
      throw budgetRefusal({ ...facts, verdict: early, todayTotal: catalog.credits.dayTotal(profile, this.day) });
    }
    const outcome = catalog.credits.reserve({
      operationId,
      profile,
      day: this.day,
      quoted: quote.credits,
      dailyBudget: budget.daily_credit_budget,
    });
    this.todayBefore = outcome.todayBefore;
    if (!outcome.ok) throw budgetRefusal({ ...facts, verdict: 'daily', todayTotal: outcome.todayBefore });
    this.#reserved = true;
    return 'submit';
  };

  /**
   * After a run that succeeded: what the balance read measures. Only when the page showed a balance
   * before the click, for a video or a quote above 0 (an image quoted 0 is not worth a page load),
   * and only a drop counts (an equal balance may be a lag or a refund: unmeasured, not 0).
   */
  async measure(session: Pick<FlowSession, 'context'>, kind: 'image' | 'video'): Promise<number | null> {
    const before = this.quote?.balance ?? null;
    if (this.options.dryRun || before === null || (kind === 'image' && (this.quote?.credits ?? 0) === 0)) return null;
    try {
      const { readCredits } = await import('@gflow/driver');
      const after = await readCredits(session.context, { signal: this.options.signal, timeoutMs: 30_000 });
      const spent = before - after.credits;
      if (spent <= 0) {
        this.runtime.logger.info('the balance did not drop after the run; credits_spent unmeasured', {
          before,
          after: after.credits,
        });
        return null;
      }
      this.runtime.catalog.credits.recordSpent(this.options.operationId, spent);
      this.spent = spent;
      return spent;
    } catch (error) {
      this.runtime.logger.warn('could not read the balance after the run; credits_spent unmeasured', {
        error: isGflowError(error) ? error.code : String(error),
      });
      return null;
    }
  }

  /** A failed run whose submit never left (the error says so, or it failed before the click): its quote no longer counts. */
  settleFailure(error: unknown, mayHaveSpent: boolean): void {
    if (!this.#reserved) return;
    const said = isGflowError(error) ? error.extensions['may_have_spent'] : undefined;
    if (said === false || (!mayHaveSpent && said !== true)) {
      try {
        this.runtime.catalog.credits.release(this.options.operationId);
      } catch (failure) {
        this.runtime.logger.warn('could not release a credit reservation', { error: String(failure) });
      }
    }
  }

  /** The ledger's fields of the result envelope. */
  envelopeFields(): { credits_quoted?: number | null; credits_spent?: number | null } {
    if (this.quote === null) return {};
    return { credits_quoted: this.quote.credits, credits_spent: this.spent };
  }

  /** A dry run's budget block: the caps, the day's total, and whether a real submit would pass. */
  budgetReport(): Record<string, unknown> {
    const { budget } = this.options;
    return {
      max_credits_per_call: budget.max_credits_per_call,
      daily_credit_budget: budget.daily_credit_budget,
      day: this.day,
      today_quoted: this.todayBefore,
      would_refuse: this.wouldRefuse,
    };
  }
}

/**
 * The budgets a request runs under: the ones it carries (the queuing process's settings and the
 * call's max_credits), made stricter by this process's own settings, never looser.
 */
export function budgetOfRequest(
  settings: Pick<ResolvedSettings, 'maxCreditsPerCall' | 'dailyCreditBudget'>,
  request: { readonly credit_budget: CreditBudget; readonly input: { readonly max_credits?: number | undefined } },
): CreditBudget {
  return stricterBudget(request.credit_budget, creditBudgetOf(settings, request.input.max_credits));
}

/** What a dry run answers: `estimated`, the quote and balance, what would run, the budgets, the uploads it made. */
export function estimatedEnvelope(
  spend: SpendControl,
  run: {
    readonly taskId: string;
    readonly mode: string;
    readonly params: Record<string, unknown>;
    readonly projectId: string;
    readonly arm: 'classic' | 'agent-only';
    readonly stopped: 'before-submit' | 'agent-confirmation';
    readonly uploads: ReadonlyArray<{ readonly displayName: string; readonly mediaId: string }>;
    readonly sandbox: boolean;
  },
): GenerationResult {
  const quote = spend.quote;
  const credits = quote?.credits ?? null;
  const balance = quote?.balance ?? null;
  return {
    status: 'estimated',
    task_id: run.taskId,
    task_type: run.mode,
    flow_project_id: run.projectId,
    credits_quoted: credits,
    balance,
    plan: {
      ...run.params,
      mode: run.mode,
      flow_project_id: run.projectId,
      ui_arm: run.arm,
      quote_source: quote?.source ?? 'none',
      ...(quote?.text ? { quote_text: quote.text } : {}),
      affordable: credits === null || balance === null ? null : credits <= balance,
      // On an agent-only composer the quote comes from the agent's confirmation, after the directive.
      submitted: run.stopped === 'agent-confirmation' ? 'the directive only; the confirmation was rejected' : 'nothing',
    },
    budget: spend.budgetReport(),
    uploads: run.uploads.map((u) => ({ display_name: u.displayName, media_id: u.mediaId })),
    ...(run.sandbox ? { sandbox: true } : {}),
  };
}
