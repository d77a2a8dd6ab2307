import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderFields, renderTable } from '../output/table.js';

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
      text: `${renderTable(['PROFILE', 'CREDITS', 'AUTHENTICATED', 'NOTE'], rows)}\nTotal: ${r.total_credits ?? '-'}`,
    };
  },
});

export const creditsCommand = defineGroup({
  name: 'credits',
  description: 'Flow credits (they fund video; images use per-model daily quotas).',
  children: { user, list },
});
