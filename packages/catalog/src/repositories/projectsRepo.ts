import { and, eq } from 'drizzle-orm';
import type { CatalogContext } from '../context.js';
import { type Page, type PageOptions, normalisePage, toPage } from '../paging.js';
import { projects } from '../schema/index.js';
import { assertFlowId, assertProfileName } from '../validation.js';
import type { ProfilesRepo } from './profilesRepo.js';

export type ProjectRow = typeof projects.$inferSelect;

export interface UpsertProjectInput {
  readonly profile: string;
  readonly flowProjectId: string;
  /** Omitted or null keeps the stored title. */
  readonly title?: string | null;
  /** Who made the row: `gflow` (default), `sync`, … */
  readonly source?: string;
  /** Defaults to now; only used when the row is created. */
  readonly createdAt?: string;
}

/** A row of `project list` / `gflow_list_projects`. */
export interface ProjectListItem {
  readonly projectId: string;
  readonly title: string | null;
  readonly profile: string;
  readonly source: string;
  readonly createdAt: string;
  readonly imageCount: number;
  readonly videoCount: number;
}

export interface ListProjectsOptions extends PageOptions {
  /** Omitted = every profile. */
  readonly profile?: string;
}

/** A project `data sync` reads: its stored title and the media of it the catalog has no name for. */
export interface ProjectToSync {
  readonly projectId: string;
  readonly title: string | null;
  readonly unnamed: readonly string[];
}

export interface ProjectsToSyncOptions {
  /** Only this project. */
  readonly projectId?: string;
  /** Every project, also those with a title and every asset named. */
  readonly all?: boolean;
  /** At most this many projects, newest first (1..1000). */
  readonly limit: number;
}

export interface ProjectsRepo {
  upsert(input: UpsertProjectInput): ProjectRow;
  /** Creates a bare row when the project is unknown (used before recording assets). */
  ensure(profile: string, flowProjectId: string): void;
  get(profile: string, flowProjectId: string): ProjectRow | undefined;
  /** Newest first; limit clamped to 1..1000 (default 50); has_more from limit + 1. */
  list(options?: ListProjectsOptions): Page<ProjectListItem>;
  /**
   * A profile's projects that lack a title or hold an asset without a display name (or every
   * project, `all`), newest first, with those assets' media ids.
   */
  toSync(profile: string, options: ProjectsToSyncOptions): ProjectToSync[];
}

export const PROJECT_LIST_MAX_LIMIT = 1000;

const LIST_COLUMNS = `p.flow_project_id AS projectId, p.title, p.profile_name AS profile, p.source, p.created_at AS createdAt,
  (SELECT count(*) FROM assets a WHERE a.profile_name = p.profile_name AND a.flow_project_id = p.flow_project_id AND a.kind = 'image') AS imageCount,
  (SELECT count(*) FROM assets a WHERE a.profile_name = p.profile_name AND a.flow_project_id = p.flow_project_id AND a.kind = 'video') AS videoCount`;

/** The project page queries, exported so the bench and the plan test run the same SQL. */
export const PROJECT_PAGE_SQL = {
  all: `SELECT ${LIST_COLUMNS} FROM projects p ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
  byProfile: `SELECT ${LIST_COLUMNS} FROM projects p WHERE p.profile_name = ? ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
} as const;

/** An asset of the project `p` without its display name (neither the name nor, redacted, its hash). */
const UNNAMED = `FROM assets a WHERE a.profile_name = p.profile_name AND a.flow_project_id = p.flow_project_id
  AND (a.display_name IS NULL OR a.display_name = '') AND a.display_name_hash IS NULL`;

/** The `data sync` candidates: by the profile index (projects_by_profile_created), a subquery per project. */
const PROJECTS_TO_SYNC_SQL = `SELECT p.flow_project_id AS projectId, p.title,
  (SELECT json_group_array(u.id) FROM (SELECT a.flow_media_id AS id ${UNNAMED} ORDER BY a.id) u) AS unnamedJson
  FROM projects p WHERE p.profile_name = @profile AND (@projectId IS NULL OR p.flow_project_id = @projectId)
    AND (@all = 1 OR p.title IS NULL OR p.title = '' OR EXISTS (SELECT 1 ${UNNAMED}))
  ORDER BY p.created_at DESC, p.id DESC LIMIT @limit`;

export function createProjectsRepo(ctx: CatalogContext, profilesRepo: ProfilesRepo): ProjectsRepo {
  const toSync = ctx.db.prepare(PROJECTS_TO_SYNC_SQL);
  const listAll = ctx.db.prepare(PROJECT_PAGE_SQL.all);
  const listByProfile = ctx.db.prepare(PROJECT_PAGE_SQL.byProfile);
  const insertBare = ctx.db.prepare(
    `INSERT INTO projects (profile_name, flow_project_id, created_at, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (profile_name, flow_project_id) DO NOTHING`,
  );

  const get = (profile: string, flowProjectId: string): ProjectRow | undefined =>
    ctx.orm
      .select()
      .from(projects)
      .where(and(eq(projects.profileName, profile), eq(projects.flowProjectId, flowProjectId)))
      .get();

  return {
    upsert(input) {
      assertProfileName(input.profile);
      assertFlowId(input.flowProjectId, 'project_id');
      return ctx.write(() => {
        profilesRepo.touch(input.profile);
        const now = ctx.now();
        const title = input.title ?? null;
        return ctx.orm
          .insert(projects)
          .values({
            profileName: input.profile,
            flowProjectId: input.flowProjectId,
            title,
            source: input.source ?? 'gflow',
            createdAt: input.createdAt ?? now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [projects.profileName, projects.flowProjectId],
            set: {
              updatedAt: now,
              ...(title === null ? {} : { title }),
              ...(input.source ? { source: input.source } : {}),
            },
          })
          .returning()
          .get();
      });
    },
    ensure(profile, flowProjectId) {
      assertFlowId(flowProjectId, 'project_id');
      ctx.write(() => {
        profilesRepo.touch(profile);
        const now = ctx.now();
        insertBare.run(profile, flowProjectId, now, now);
      });
    },
    get,
    toSync(profile, options) {
      assertProfileName(profile);
      if (options.projectId !== undefined) assertFlowId(options.projectId, 'project_id');
      const limit = Math.min(PROJECT_LIST_MAX_LIMIT, Math.max(1, Math.trunc(options.limit)));
      const rows = toSync.all({
        profile,
        projectId: options.projectId ?? null,
        all: options.all ? 1 : 0,
        limit,
      }) as Array<{ projectId: string; title: string | null; unnamedJson: string }>;
      return rows.map((r) => ({
        projectId: r.projectId,
        title: r.title === '' ? null : r.title,
        unnamed: JSON.parse(r.unnamedJson) as string[],
      }));
    },
    list(options = {}) {
      const { limit, offset } = normalisePage(options, 50, PROJECT_LIST_MAX_LIMIT);
      const rows =
        options.profile === undefined
          ? listAll.all(limit + 1, offset)
          : listByProfile.all(assertProfileName(options.profile), limit + 1, offset);
      return toPage(rows as ProjectListItem[], limit, offset);
    },
  };
}
