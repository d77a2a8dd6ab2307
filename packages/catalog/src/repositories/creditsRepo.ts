import { BadParameterError, DataIntegrityError } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { assertProfileName } from '../validation.js';

/** A local calendar day, `YYYY-MM-DD` (the caller's time zone decides which day it is). */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface ReserveCreditsInput {
  /** The operation row of the generation about to be submitted. */
  readonly operationId: number;
  readonly profile: string;
  /** The local day the quote counts toward (`YYYY-MM-DD`). */
  readonly day: string;
  /** What Flow quoted before the click; null when it could not be read. */
  readonly quoted: number | null;
  /** The profile's daily cap; null when no daily budget is set. */
  readonly dailyBudget: number | null;
}

/**
 * The ledger's verdict on one submit. `todayBefore` is the profile's reserved total for the day
 * without this operation. Not ok: the quote would take the day past the budget, or a budget is set
 * and the quote is unreadable (fail closed); the row is then `released` (it does not count).
 */
export interface ReserveOutcome {
  readonly ok: boolean;
  readonly todayBefore: number;
}

export interface CreditUsageRow {
  readonly quoted: number;
  /** Measured spend of the rows that have one (a balance read after the run). */
  readonly spent: number;
  /** Reserved operations (with or without a readable quote). */
  readonly operations: number;
  /** Of those, how many had no readable quote (counted as 0). */
  readonly unquoted: number;
  /** How many have a measured spend. */
  readonly measured: number;
}

export interface CreditUsage {
  readonly byDay: ReadonlyArray<CreditUsageRow & { readonly day: string }>;
  readonly byModel: ReadonlyArray<CreditUsageRow & { readonly model: string | null }>;
  readonly bySurface: ReadonlyArray<CreditUsageRow & { readonly surface: string | null }>;
  readonly total: CreditUsageRow;
  /** Dry runs in the range (not counted above). */
  readonly estimates: { readonly count: number; readonly quoted: number };
}

export interface CreditsRepo {
  /**
   * Decides a submit against the daily budget and records the quote, in one BEGIN IMMEDIATE
   * transaction: the day's reserved total is read and this quote reserved (or the row released)
   * before any other process can do the same, so two processes at the cap cannot both pass.
   */
  reserve(input: ReserveCreditsInput): ReserveOutcome;
  /** Records a quote that was refused before the click (a per-call cap, an unreadable quote): `released`. */
  refuse(operationId: number, input: { readonly day: string; readonly quoted: number | null }): void;
  /** Records a dry run's quote: `estimated` (never counted). */
  estimate(operationId: number, input: { readonly day: string; readonly quoted: number | null }): void;
  /** A reserved quote whose submit never left (nothing was sent): `released`. No-op otherwise. */
  release(operationId: number): void;
  /** The credits a balance read measured for this operation. */
  recordSpent(operationId: number, spent: number): void;
  /** The profile's reserved total for the day. */
  dayTotal(profile: string, day: string): number;
  /** Reserved quotes (and measured spend) per day, model and surface for `since`..`until` (inclusive days). */
  usage(options: { readonly since: string; readonly until: string; readonly profile?: string }): CreditUsage;
}

/** The statements the ledger reads (the query-plan test checks they use an index). */
export const CREDIT_SQL = {
  dayTotal: `SELECT coalesce(sum(credits_quoted), 0) AS total FROM operations
    WHERE profile_name = ? AND credit_day = ? AND credit_state = 'reserved' AND id <> ?`,
  usageByDay: `SELECT credit_day AS day, coalesce(sum(credits_quoted), 0) AS quoted, coalesce(sum(credits_spent), 0) AS spent,
      count(*) AS operations, sum(credits_quoted IS NULL) AS unquoted, sum(credits_spent IS NOT NULL) AS measured
    FROM operations WHERE credit_day >= @since AND credit_day <= @until AND credit_state = 'reserved'
      AND (@profile IS NULL OR profile_name = @profile)
    GROUP BY credit_day ORDER BY credit_day`,
  usageByProfileDay: `SELECT credit_day AS day, coalesce(sum(credits_quoted), 0) AS quoted, coalesce(sum(credits_spent), 0) AS spent,
      count(*) AS operations, sum(credits_quoted IS NULL) AS unquoted, sum(credits_spent IS NOT NULL) AS measured
    FROM operations WHERE profile_name = @profile AND credit_day >= @since AND credit_day <= @until
      AND credit_state = 'reserved'
    GROUP BY credit_day ORDER BY credit_day`,
} as const;

const GROUPED = (column: string): string => `SELECT ${column} AS key, coalesce(sum(credits_quoted), 0) AS quoted,
    coalesce(sum(credits_spent), 0) AS spent, count(*) AS operations, sum(credits_quoted IS NULL) AS unquoted,
    sum(credits_spent IS NOT NULL) AS measured
  FROM operations WHERE credit_day >= @since AND credit_day <= @until AND credit_state = 'reserved'
    AND (@profile IS NULL OR profile_name = @profile)
  GROUP BY ${column} ORDER BY quoted DESC, key`;

function checkDay(day: string, parameter = 'day'): void {
  if (!DAY.test(day)) throw new BadParameterError(`${parameter} must be YYYY-MM-DD.`, { extensions: { parameter } });
}

function checkCredits(value: number | null, parameter: string): void {
  if (value !== null && (!Number.isSafeInteger(value) || value < 0))
    throw new BadParameterError(`${parameter} must be a whole number of credits ≥ 0.`, { extensions: { parameter } });
}

type Row = CreditUsageRow & { key?: string | null; day?: string };

const usageRow = (r: Row): CreditUsageRow => ({
  quoted: r.quoted,
  spent: r.spent,
  operations: r.operations,
  unquoted: r.unquoted ?? 0,
  measured: r.measured ?? 0,
});

export function createCreditsRepo(ctx: CatalogContext): CreditsRepo {
  const dayTotal = ctx.db.prepare(CREDIT_SQL.dayTotal);
  const mark = ctx.db.prepare(
    `UPDATE operations SET credits_quoted = @quoted, credit_day = @day, credit_state = @state WHERE id = @id`,
  );
  const exists = ctx.db.prepare('SELECT profile_name AS profile FROM operations WHERE id = ?');
  const release = ctx.db.prepare(
    `UPDATE operations SET credit_state = 'released' WHERE id = ? AND credit_state = 'reserved'`,
  );
  const spent = ctx.db.prepare('UPDATE operations SET credits_spent = ? WHERE id = ?');
  const byDay = ctx.db.prepare(CREDIT_SQL.usageByDay);
  const byProfileDay = ctx.db.prepare(CREDIT_SQL.usageByProfileDay);
  const byModel = ctx.db.prepare(GROUPED('model'));
  const bySurface = ctx.db.prepare(GROUPED('surface'));
  const estimates = ctx.db.prepare(
    `SELECT count(*) AS count, coalesce(sum(credits_quoted), 0) AS quoted FROM operations
     WHERE credit_day >= @since AND credit_day <= @until AND credit_state = 'estimated'
       AND (@profile IS NULL OR profile_name = @profile)`,
  );

  const profileOf = (operationId: number): string => {
    const row = exists.get(operationId) as { profile: string } | undefined;
    if (row === undefined) throw new DataIntegrityError(`No operation with id ${operationId}.`);
    return row.profile;
  };
  const record = (operationId: number, input: { day: string; quoted: number | null }, state: string): void => {
    checkDay(input.day);
    checkCredits(input.quoted, 'credits_quoted');
    ctx.write(() => {
      profileOf(operationId);
      mark.run({ id: operationId, quoted: input.quoted, day: input.day, state });
    });
  };

  return {
    reserve(input) {
      assertProfileName(input.profile);
      checkDay(input.day);
      checkCredits(input.quoted, 'credits_quoted');
      checkCredits(input.dailyBudget, 'daily_budget');
      return ctx.write(() => {
        if (profileOf(input.operationId) !== input.profile)
          throw new DataIntegrityError(`Operation ${input.operationId} belongs to another profile.`);
        const before = (dayTotal.get(input.profile, input.day, input.operationId) as { total: number }).total;
        const ok = input.dailyBudget === null || (input.quoted !== null && before + input.quoted <= input.dailyBudget);
        mark.run({
          id: input.operationId,
          quoted: input.quoted,
          day: input.day,
          state: ok ? 'reserved' : 'released',
        });
        return { ok, todayBefore: before };
      });
    },
    refuse(operationId, input) {
      record(operationId, input, 'released');
    },
    estimate(operationId, input) {
      record(operationId, input, 'estimated');
    },
    release(operationId) {
      ctx.write(() => release.run(operationId));
    },
    recordSpent(operationId, credits) {
      checkCredits(credits, 'credits_spent');
      ctx.write(() => {
        profileOf(operationId);
        spent.run(credits, operationId);
      });
    },
    dayTotal(profile, day) {
      assertProfileName(profile);
      checkDay(day);
      return (dayTotal.get(profile, day, -1) as { total: number }).total;
    },
    usage(options) {
      checkDay(options.since, 'since');
      checkDay(options.until, 'until');
      if (options.profile !== undefined) assertProfileName(options.profile);
      const params = { since: options.since, until: options.until, profile: options.profile ?? null };
      const days = (
        (options.profile === undefined ? byDay.all(params) : byProfileDay.all(params)) as Array<Row & { day: string }>
      ).map((r) => ({ day: r.day, ...usageRow(r) }));
      const total = days.reduce<CreditUsageRow>(
        (sum, r) => ({
          quoted: sum.quoted + r.quoted,
          spent: sum.spent + r.spent,
          operations: sum.operations + r.operations,
          unquoted: sum.unquoted + r.unquoted,
          measured: sum.measured + r.measured,
        }),
        { quoted: 0, spent: 0, operations: 0, unquoted: 0, measured: 0 },
      );
      const est = estimates.get(params) as { count: number; quoted: number };
      return {
        byDay: days,
        byModel: (byModel.all(params) as Row[]).map((r) => ({ model: r.key ?? null, ...usageRow(r) })),
        bySurface: (bySurface.all(params) as Row[]).map((r) => ({ surface: r.key ?? null, ...usageRow(r) })),
        total,
        estimates: { count: est.count, quoted: est.quoted },
      };
    },
  };
}
