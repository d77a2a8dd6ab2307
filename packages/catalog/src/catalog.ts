import type { Database } from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { BUSY_TIMEOUT_MS, openDatabase } from './connection/openDatabase.js';
import { toCatalogError } from './connection/sqliteErrors.js';
import type { CatalogContext, HistoryPromptsMode } from './context.js';
import { MIGRATIONS, type Migration } from './migrations/loadMigrations.js';
import { type MigrationStatus, migrate, migrationStatus, verifyMigrated } from './migrations/migrate.js';
import { type AssetListing, createAssetListing } from './repositories/assetListing.js';
import { type AssetsRepo, createAssetsRepo } from './repositories/assetsRepo.js';
import { type CreditsRepo, createCreditsRepo } from './repositories/creditsRepo.js';
import { type LineageRepo, createLineageRepo } from './repositories/lineageRepo.js';
import { type ChainsRepo, createChainsRepo } from './repositories/chainsRepo.js';
import { type UploadsRepo, createUploadsRepo } from './repositories/uploadsRepo.js';
import { type ErrorsRepo, createErrorsRepo } from './repositories/errorsRepo.js';
import { type LocalFilesRepo, createLocalFilesRepo } from './repositories/localFilesRepo.js';
import { type MediaLookup, createMediaLookup } from './repositories/mediaLookup.js';
import { type OperationsRepo, createOperationsRepo } from './repositories/operationsRepo.js';
import { type ProfilesRepo, createProfilesRepo } from './repositories/profilesRepo.js';
import { type ProjectsRepo, createProjectsRepo } from './repositories/projectsRepo.js';
import { type ReferenceResolver, createReferenceResolver } from './repositories/referenceResolver.js';
import { type UsageRepo, createUsageRepo } from './repositories/usageRepo.js';
import { catalogSchema } from './schema/index.js';
import { type TasksRepo, createTasksRepo } from './tasks/tasksRepo.js';
import { type Clock, isoOf, systemClock } from './time.js';

export interface OpenCatalogOptions {
  /** The database file (`:memory:` for tests). Its directory is created when missing. */
  readonly path: string;
  /** `redacted` (GFLOW_CLI_HISTORY_PROMPTS=redacted): prompts and display names are stored as hashes only. */
  readonly historyPrompts?: HistoryPromptsMode;
  /** Opens without writing: no migration (a pending one is refused), no WAL switch. */
  readonly readonly?: boolean;
  readonly now?: Clock;
  /** Override the shipped migrations (tests). */
  readonly migrations?: readonly Migration[];
  /** How long a statement waits for another process's write lock before CatalogBusyError (default 30 s). */
  readonly busyTimeoutMs?: number;
}

/** The catalog: one connection, its repositories, and close(). */
export interface Catalog {
  readonly path: string;
  readonly historyPrompts: HistoryPromptsMode;
  readonly profiles: ProfilesRepo;
  readonly projects: ProjectsRepo;
  readonly assets: AssetsRepo & AssetListing;
  readonly localFiles: LocalFilesRepo;
  readonly media: MediaLookup;
  readonly references: ReferenceResolver;
  readonly operations: OperationsRepo;
  readonly errors: ErrorsRepo;
  readonly tasks: TasksRepo;
  readonly usage: UsageRepo;
  /** Video chains and how far each got (`video chain --resume-from`). */
  readonly chains: ChainsRepo;
  /** Local files uploaded into Flow projects, by content (a later run mentions them in place). */
  readonly uploads: UploadsRepo;
  /** The credit ledger: quotes reserved against the daily budget, measured spend, usage (issue 24). */
  readonly credits: CreditsRepo;
  /** Which operation made an asset, from what, and what was made from it. */
  readonly lineage: LineageRepo;
  /** Migration state as of now (for `doctor`). */
  migrationStatus(): MigrationStatus;
  /** Runs `fn` in one BEGIN IMMEDIATE transaction (repository calls inside join it). */
  transaction<T>(fn: () => T): T;
  /** What SQLite threw at a call on this catalog, as gflow's error (busy, read-only); anything else as it came. */
  errorOf(error: unknown): unknown;
  /** The underlying better-sqlite3 connection, for diagnostics and benchmarks. */
  readonly database: Database;
  close(): void;
}

/**
 * Opens (creating and migrating when needed) the catalog at `path`.
 * Throws DataStoreError for a file that is not a readable SQLite catalog,
 * DataMigrationError for a drifted or newer schema (neither is ever rewritten), and
 * CatalogBusyError when another process holds its write lock past the busy timeout.
 */
export function openCatalog(options: OpenCatalogOptions): Catalog {
  const clock = options.now ?? systemClock;
  const now = (): string => isoOf(clock());
  const migrations = options.migrations ?? MIGRATIONS;
  const historyPrompts = options.historyPrompts ?? 'store';
  const where = { path: options.path, busyTimeoutMs: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS };
  const db = openDatabase(options.path, {
    busyTimeoutMs: where.busyTimeoutMs,
    ...(options.readonly === true ? { readonly: true } : {}),
  });
  try {
    if (options.readonly === true) verifyMigrated(db, migrations);
    else migrate(db, migrations, now);
  } catch (error) {
    db.close();
    throw toCatalogError(error, where);
  }
  const ctx: CatalogContext = {
    db,
    orm: drizzle({ client: db, schema: catalogSchema }),
    now,
    historyPrompts,
    write: (fn) => {
      try {
        return db.inTransaction ? db.transaction(fn)() : db.transaction(fn).immediate();
      } catch (error) {
        throw toCatalogError(error, where);
      }
    },
  };
  const profiles = createProfilesRepo(ctx);
  const projects = createProjectsRepo(ctx, profiles);
  const localFiles = createLocalFilesRepo(ctx);
  const media = createMediaLookup(ctx, localFiles);
  return {
    path: options.path,
    historyPrompts,
    profiles,
    projects,
    assets: { ...createAssetsRepo(ctx, profiles, projects), ...createAssetListing(ctx) },
    localFiles,
    media,
    references: createReferenceResolver(media, localFiles),
    operations: createOperationsRepo(ctx, profiles),
    errors: createErrorsRepo(ctx),
    tasks: createTasksRepo(ctx, profiles),
    usage: createUsageRepo(ctx),
    chains: createChainsRepo(ctx, profiles),
    uploads: createUploadsRepo(ctx, profiles),
    credits: createCreditsRepo(ctx),
    lineage: createLineageRepo(ctx),
    migrationStatus: () => migrationStatus(db, migrations),
    transaction: ctx.write,
    errorOf: (error) => toCatalogError(error, where),
    database: db,
    close: () => {
      if (db.open) db.close();
    },
  };
}

export { BUSY_TIMEOUT_MS };
