import type { CatalogContext } from '../context.js';
import { type Page, type PageOptions, normalisePage, toPage } from '../paging.js';
import { assertProfileName } from '../validation.js';

/** A failed operation, as `data list errors` / `data errors export` show it. */
export interface ErrorListItem {
  readonly operationId: number;
  readonly profile: string;
  readonly command: string;
  readonly mode: string | null;
  readonly projectId: string | null;
  readonly model: string | null;
  readonly errorType: string | null;
  readonly errorDetail: string | null;
  readonly startedAt: string;
  readonly completedAt: string | null;
}

export interface ListErrorsOptions extends PageOptions {
  readonly profile?: string;
}

export interface ErrorsRepo {
  /** Failed operations, newest first; limit 1..1000 (default 20). */
  list(options?: ListErrorsOptions): Page<ErrorListItem>;
  /** Every failed operation started before `before` (ISO), oldest first (`data errors export`). */
  exportBefore(before: string, options?: { readonly profile?: string }): ErrorListItem[];
  /** `data errors prune --older-than`: deletes failed operations started before `before`. */
  prune(
    before: string,
    options?: { readonly profile?: string; readonly dryRun?: boolean },
  ): { readonly count: number; readonly dryRun: boolean };
}

const COLUMNS = `id AS operationId, profile_name AS profile, command, mode, flow_project_id AS projectId, model,
  error_type AS errorType, error_detail AS errorDetail, started_at AS startedAt, completed_at AS completedAt`;

/** The error page queries (the literal `status = 'failed'` lets SQLite use the partial indexes). */
export const ERROR_PAGE_SQL = {
  all: `SELECT ${COLUMNS} FROM operations WHERE status = 'failed' ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`,
  byProfile: `SELECT ${COLUMNS} FROM operations WHERE status = 'failed' AND profile_name = ? ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`,
} as const;

export function createErrorsRepo(ctx: CatalogContext): ErrorsRepo {
  const all = ctx.db.prepare(ERROR_PAGE_SQL.all);
  const byProfile = ctx.db.prepare(ERROR_PAGE_SQL.byProfile);
  const before = ctx.db.prepare(
    `SELECT ${COLUMNS} FROM operations WHERE status = 'failed' AND started_at < @before AND (@profile IS NULL OR profile_name = @profile) ORDER BY started_at, id`,
  );
  // operation_assets rows go with their operation (ON DELETE CASCADE); assets stay.
  const prune = ctx.db.prepare(
    `DELETE FROM operations WHERE status = 'failed' AND started_at < @before AND (@profile IS NULL OR profile_name = @profile)`,
  );
  const profileParam = (profile: string | undefined): string | null =>
    profile === undefined ? null : assertProfileName(profile);
  return {
    list(options = {}) {
      const { limit, offset } = normalisePage(options, 20, 1000);
      const rows =
        options.profile === undefined
          ? all.all(limit + 1, offset)
          : byProfile.all(assertProfileName(options.profile), limit + 1, offset);
      return toPage(rows as ErrorListItem[], limit, offset);
    },
    exportBefore(beforeIso, options = {}) {
      return before.all({ before: beforeIso, profile: profileParam(options.profile) }) as ErrorListItem[];
    },
    prune(beforeIso, options = {}) {
      const dryRun = options.dryRun === true;
      const params = { before: beforeIso, profile: profileParam(options.profile) };
      if (dryRun) return { count: before.all(params).length, dryRun };
      return { count: ctx.write(() => prune.run(params).changes), dryRun };
    },
  };
}
