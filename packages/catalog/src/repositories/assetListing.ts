import type { CatalogContext } from '../context.js';
import { type Page, type PageOptions, normalisePage, toPage } from '../paging.js';
import { assertProfileName } from '../validation.js';
import type { AssetKind } from './assetsRepo.js';

/** A row of `data list images|videos`. */
export interface MediaListItem {
  readonly assetId: number;
  readonly mediaId: string;
  readonly profile: string;
  readonly projectId: string | null;
  readonly workflowId: string | null;
  readonly kind: AssetKind;
  readonly status: string;
  readonly model: string | null;
  readonly aspectRatio: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly durationSeconds: number | null;
  readonly seed: number | null;
  readonly displayName: string | null;
  readonly createdAt: string;
  /** The prompt of the newest operation that output this asset (null when redacted or unknown). */
  readonly prompt: string | null;
  readonly promptHash: string | null;
  /** Aggregated mode: number of copies and MAX(path). All-copies mode: 1 or 0 and that copy's path. */
  readonly fileCount: number;
  readonly path: string | null;
  readonly bytes: number | null;
}

export interface ListMediaOptions extends PageOptions {
  readonly kind: AssetKind;
  readonly profile?: string;
  /** One row per local file instead of one per asset (`--all-copies`). */
  readonly allCopies?: boolean;
}

const ASSET_COLUMNS = `a.id AS assetId, a.flow_media_id AS mediaId, a.profile_name AS profile, a.flow_project_id AS projectId,
  a.flow_workflow_id AS workflowId, a.kind, a.status, a.model, a.aspect_ratio AS aspectRatio, a.width, a.height,
  a.duration_seconds AS durationSeconds, a.seed, a.display_name AS displayName, a.created_at AS createdAt`;
const PROMPT = (column: string): string =>
  `(SELECT o.${column} FROM operation_assets oa JOIN operations o ON o.id = oa.operation_id
    WHERE oa.asset_id = a.id AND oa.role = 'output' ORDER BY oa.operation_id DESC LIMIT 1)`;
const AGGREGATED = `SELECT ${ASSET_COLUMNS}, ${PROMPT('prompt')} AS prompt, ${PROMPT('prompt_hash')} AS promptHash,
  (SELECT count(*) FROM local_files f WHERE f.asset_id = a.id) AS fileCount,
  (SELECT max(f.path) FROM local_files f WHERE f.asset_id = a.id) AS path,
  (SELECT f.bytes FROM local_files f WHERE f.asset_id = a.id ORDER BY f.path DESC LIMIT 1) AS bytes
  FROM assets a`;
const PER_FILE = `SELECT ${ASSET_COLUMNS}, ${PROMPT('prompt')} AS prompt, ${PROMPT('prompt_hash')} AS promptHash,
  (f.id IS NOT NULL) AS fileCount, f.path AS path, f.bytes AS bytes
  FROM assets a LEFT JOIN local_files f ON f.asset_id = a.id`;
const ORDER = 'ORDER BY a.created_at DESC, a.id DESC';

/** The media page queries, exported so the bench and the plan test run the same SQL. */
export const MEDIA_PAGE_SQL = {
  all: `${AGGREGATED} WHERE a.kind = ? ${ORDER} LIMIT ? OFFSET ?`,
  byProfile: `${AGGREGATED} WHERE a.profile_name = ? AND a.kind = ? ${ORDER} LIMIT ? OFFSET ?`,
  allCopies: `${PER_FILE} WHERE a.kind = ? ${ORDER}, f.id LIMIT ? OFFSET ?`,
  allCopiesByProfile: `${PER_FILE} WHERE a.profile_name = ? AND a.kind = ? ${ORDER}, f.id LIMIT ? OFFSET ?`,
} as const;

export const MEDIA_LIST_MAX_LIMIT = 1000;

export interface AssetListing {
  /** Newest first, the generating prompt joined; limit 1..1000 (default 20). */
  list(options: ListMediaOptions): Page<MediaListItem>;
}

export function createAssetListing(ctx: CatalogContext): AssetListing {
  const stmts = {
    all: ctx.db.prepare(MEDIA_PAGE_SQL.all),
    byProfile: ctx.db.prepare(MEDIA_PAGE_SQL.byProfile),
    allCopies: ctx.db.prepare(MEDIA_PAGE_SQL.allCopies),
    allCopiesByProfile: ctx.db.prepare(MEDIA_PAGE_SQL.allCopiesByProfile),
  };
  return {
    list(options) {
      const { limit, offset } = normalisePage(options, 20, MEDIA_LIST_MAX_LIMIT);
      const copies = options.allCopies === true;
      const rows =
        options.profile === undefined
          ? (copies ? stmts.allCopies : stmts.all).all(options.kind, limit + 1, offset)
          : (copies ? stmts.allCopiesByProfile : stmts.byProfile).all(
              assertProfileName(options.profile),
              options.kind,
              limit + 1,
              offset,
            );
      return toPage(rows as MediaListItem[], limit, offset);
    },
  };
}
