import { z } from 'zod';
import { localDay } from '../generation/index.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { knownProfileFilter } from './catalogParams.js';
import { defineOperation } from './operation.js';

const usageRow = z.strictObject({
  quoted: z.number().int().nonnegative(),
  spent: z.number().int().nonnegative(),
  operations: z.number().int().nonnegative(),
  unquoted: z.number().int().nonnegative(),
  measured: z.number().int().nonnegative(),
});

/** The credit numbers `gflow credits usage` prints and `gflow_usage_stats` carries (snake_case). */
export const creditUsageBlock = z.strictObject({
  since: z.string(),
  until: z.string(),
  budgets: z.strictObject({
    daily_credit_budget: z.number().int().nullable(),
    max_credits_per_call: z.number().int().nullable(),
  }),
  total: usageRow,
  by_day: z.array(usageRow.extend({ day: z.string() })),
  by_model: z.array(usageRow.extend({ model: z.string().nullable() })),
  by_surface: z.array(usageRow.extend({ surface: z.string().nullable() })),
  /** Dry runs in the range: not counted above. */
  estimates: z.strictObject({ count: z.number().int().nonnegative(), quoted: z.number().int().nonnegative() }),
});
export type CreditUsageBlock = z.output<typeof creditUsageBlock>;

/**
 * The ledger's numbers for the last `days` local days (today included): reserved quotes and
 * measured spend per day, model and surface, from the catalog's operations. Local data only.
 */
export function creditUsageOf(
  runtime: Pick<RuntimeServices, 'catalog' | 'settings'>,
  options: { readonly days: number; readonly profile?: string; readonly now?: Date } | { readonly since: string },
): CreditUsageBlock {
  const now = 'now' in options && options.now !== undefined ? options.now : new Date();
  const until = localDay(now);
  // Local days back from today (at noon, so a daylight-saving change cannot skip or repeat one).
  const since =
    'since' in options
      ? options.since
      : localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - (options.days - 1), 12));
  const profile = 'profile' in options ? options.profile : undefined;
  const usage = runtime.catalog.credits.usage({
    since,
    until,
    ...(profile === undefined ? {} : { profile }),
  });
  return {
    since,
    until,
    budgets: {
      daily_credit_budget: runtime.settings.dailyCreditBudget ?? null,
      max_credits_per_call: runtime.settings.maxCreditsPerCall ?? null,
    },
    total: usage.total,
    by_day: usage.byDay.map((r) => ({ ...r })),
    by_model: usage.byModel.map((r) => ({ ...r })),
    by_surface: usage.bySurface.map((r) => ({ ...r })),
    estimates: usage.estimates,
  };
}

export const creditUsage = defineOperation({
  name: 'creditUsage',
  mcpName: 'gflow_credit_usage',
  title: 'Credit usage',
  description:
    "Credits Flow quoted before each submit (and, where a balance read measured it, what was spent) over the last N local days (default 7, 1..366), per day, model and surface, from the local catalog — the ledger GFLOW_CLI_DAILY_CREDIT_BUDGET is checked against (today's row is today's total). profile narrows it to one profile (the daily budget is per profile); omitted: every profile. Dry runs are counted apart (estimates). Local data only: no browser, no spend.",
  kind: 'read',
  usesBrowser: false,
  // The CLI's `credits usage`; MCP clients read the same numbers in gflow_usage_stats.
  surfaces: ['cli', 'library'],
  input: z.object({
    days: z.number().int().min(1).max(366).default(7).describe('Local days to cover, today included (1–366).'),
    profile: z.string().trim().min(1).optional().describe('One profile (a plain name); omitted: every profile.'),
  }),
  output: creditUsageBlock.extend({
    status: z.literal('ok'),
    days: z.number().int(),
    profile: z.string().nullable(),
    today: z.strictObject({
      day: z.string(),
      quoted: z.number().int().nonnegative(),
      /** What the daily budget leaves today (one profile only; null without a budget or a profile). */
      remaining: z.number().int().nullable(),
    }),
  }),
  handler: async (input, { runtime }) => {
    const profile = knownProfileFilter(runtime, input.profile).profile;
    const block = creditUsageOf(runtime, { days: input.days, ...(profile === undefined ? {} : { profile }) });
    const today = block.by_day.find((d) => d.day === block.until)?.quoted ?? 0;
    const budget = block.budgets.daily_credit_budget;
    return {
      status: 'ok' as const,
      days: input.days,
      profile: profile ?? null,
      ...block,
      today: {
        day: block.until,
        quoted: today,
        remaining: budget === null || profile === undefined ? null : Math.max(0, budget - today),
      },
    };
  },
});
