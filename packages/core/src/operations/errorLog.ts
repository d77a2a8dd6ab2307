// The catalog's failed operations: list, export, and prune (which writes: it deletes old rows).
import { z } from 'zod';
import * as S from './catalogSchemas.js';
import { defineOperation } from './operation.js';

const olderThan = z.string().trim().min(1).describe('Only errors older than this (90d, 24h, 30m).');
import { anyProfile, errorRow, knownProfileFilter, local, olderThanCutoff, page, pageOf } from './catalogParams.js';

export const listErrors = defineOperation({
  name: 'listErrors',
  mcpName: 'gflow_list_errors',
  title: 'Failed operations',
  description: 'Failed operations from the catalog, newest first, paginated. Local data only.',
  ...local,
  input: z.object({ profile: anyProfile, ...page }),
  output: S.pageOf(S.errorRow),
  handler: async (input, { runtime }) =>
    pageOf(
      runtime.catalog.errors.list({
        limit: input.limit,
        offset: input.offset,
        ...knownProfileFilter(runtime, input.profile),
      }),
      errorRow,
    ),
});
export const exportErrors = defineOperation({
  name: 'exportErrors',
  mcpName: 'gflow_export_errors',
  title: 'Export failed operations',
  description: 'Failed operations older than older_than (default: all), oldest first, as rows.',
  ...local,
  input: z.object({ older_than: olderThan.optional(), profile: anyProfile }),
  output: S.exportedErrors,
  handler: async (input, { runtime }) => {
    const before =
      input.older_than === undefined ? new Date(Date.now() + 1000).toISOString() : olderThanCutoff(input.older_than);
    return {
      status: 'ok' as const,
      before,
      items: runtime.catalog.errors.exportBefore(before, knownProfileFilter(runtime, input.profile)).map(errorRow),
    };
  },
});
export const pruneErrors = defineOperation({
  name: 'pruneErrors',
  mcpName: 'gflow_prune_errors',
  title: 'Delete old failed-operation records',
  description: 'Deletes failed-operation records older than older_than. dry_run only counts.',
  ...local,
  kind: 'mutate',
  input: z.object({
    older_than: olderThan,
    profile: anyProfile,
    dry_run: z.boolean().default(false).describe('Only count.'),
  }),
  output: S.prunedErrors,
  handler: async (input, { runtime }) => {
    const before = olderThanCutoff(input.older_than);
    const result = runtime.catalog.errors.prune(before, {
      ...knownProfileFilter(runtime, input.profile),
      dryRun: input.dry_run,
    });
    return { status: 'ok' as const, count: result.count, dry_run: result.dryRun, before };
  },
});
