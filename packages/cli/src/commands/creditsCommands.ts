import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderFields, renderListing, renderTable } from '../output/table.js';

const user = operationLeaf({
  name: 'user',
  description: "The Flow credit balance of one profile (read-only; opens the profile's browser).",
  operation: 'getCredits',
  schema: opSchema('getCredits'),
  overrides: { all_profiles: { omit: true } },
  examples: ['gflow credits user', 'gflow credits user --profile work --json'],
  render: (result) => ({ data: result, text: renderFields(result as Record<string, unknown>) }),
});

const list = operationLeaf({
  name: 'list',
  description: 'The credit balance of every profile, with the total.',
  operation: 'getCredits',
  schema: opSchema('getCredits'),
  fixed: { all_profiles: true },
  overrides: { all_profiles: { omit: true }, profile: { omit: true } },
  examples: ['gflow credits list --json'],
  render: (result) => {
    const r = result as { profiles?: Array<Record<string, unknown>>; total_credits?: number };
    const rows = (r.profiles ?? []).map((p) => [
      p['profile'],
      p['credits'],
      p['authenticated'],
      p['error'] ? 'error' : '',
    ]);
    return {
      data: result,
      text: `${renderListing(['PROFILE', 'CREDITS', 'AUTHENTICATED', 'NOTE'], rows, "No profiles yet. Run 'gflow auth login'.")}${rows.length ? `\nTotal: ${r.total_credits ?? '-'}` : ''}`,
    };
  },
});

interface UsageRowView {
  readonly quoted: number;
  readonly spent: number;
  readonly operations: number;
  readonly unquoted: number;
  readonly measured: number;
}

const usage = operationLeaf({
  name: 'usage',
  description:
    'Credits Flow quoted before each submit (and measured spend) per day, model and surface, from the local catalog — what GFLOW_CLI_DAILY_CREDIT_BUDGET is checked against. No browser.',
  operation: 'creditUsage',
  schema: opSchema('creditUsage'),
  overrides: { days: { valueHint: 'N' }, profile: { valueHint: 'NAME' } },
  examples: ['gflow credits usage', 'gflow credits usage --days 30 --json', 'gflow credits usage --profile work'],
  render: (result) => {
    const r = result as {
      since: string;
      until: string;
      total: UsageRowView;
      by_day: Array<UsageRowView & { day: string }>;
      by_model: Array<UsageRowView & { model: string | null }>;
      by_surface: Array<UsageRowView & { surface: string | null }>;
      budgets: { daily_credit_budget: number | null; max_credits_per_call: number | null };
      today: { day: string; quoted: number; remaining: number | null };
      estimates: { count: number; quoted: number };
    };
    const cells = (row: UsageRowView) => [row.quoted, row.measured > 0 ? row.spent : '-', row.operations];
    const table = (label: string, rows: ReadonlyArray<UsageRowView & { readonly key: string | null }>) =>
      renderTable(
        [label, 'QUOTED', 'SPENT', 'RUNS'],
        rows.map((row) => [row.key ?? '-', ...cells(row)]),
      );
    const budget = r.budgets.daily_credit_budget;
    const lines = [
      `Credits ${r.since} … ${r.until}: ${r.total.quoted} quoted${r.total.measured > 0 ? `, ${r.total.spent} measured spent` : ''} in ${r.total.operations} run(s)${r.total.unquoted > 0 ? ` (${r.total.unquoted} without a readable quote)` : ''}.`,
      `Today (${r.today.day}): ${r.today.quoted}${budget === null ? '' : ` of ${budget} (GFLOW_CLI_DAILY_CREDIT_BUDGET, per profile)`}${r.today.remaining === null ? '' : `, ${r.today.remaining} left`}; per call: ${r.budgets.max_credits_per_call ?? 'no cap'}.`,
      ...(r.estimates.count > 0 ? [`Dry runs: ${r.estimates.count} (${r.estimates.quoted} quoted, not counted).`] : []),
      // No run in the window: the line above says so, and the tables would be bare headers.
      ...(r.by_day.length === 0
        ? []
        : [
            '',
            table(
              'DAY',
              r.by_day.map((row) => ({ ...row, key: row.day })),
            ),
            '',
            table(
              'MODEL',
              r.by_model.map((row) => ({ ...row, key: row.model })),
            ),
            '',
            table(
              'SURFACE',
              r.by_surface.map((row) => ({ ...row, key: row.surface })),
            ),
          ]),
    ];
    return { data: result, text: lines.join('\n') };
  },
});

export const creditsCommand = defineGroup({
  name: 'credits',
  description: 'Flow credits (they fund video; images use per-model daily quotas) and what gflow spent of them.',
  children: { user, list, usage },
});
