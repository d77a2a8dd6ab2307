// @gflow/catalog: the public API. Curated on purpose (no `export *`).
export { type Catalog, type OpenCatalogOptions, openCatalog, BUSY_TIMEOUT_MS } from './catalog.js';
export type { HistoryPromptsMode } from './context.js';
export type { Clock } from './time.js';
export type { Page, PageOptions } from './paging.js';
export { FLOW_ID_PATTERN } from './validation.js';

export {
  type Migration,
  MIGRATIONS,
  MIGRATIONS_DIR,
  LATEST_SCHEMA_VERSION,
  SCHEMA_SQL,
  loadMigrations,
  migrationChecksum,
} from './migrations/loadMigrations.js';
export { type AppliedMigration, type MigrationStatus, migrationStatus } from './migrations/migrate.js';

export {
  catalogSchema,
  type CatalogSchema,
  profiles,
  projects,
  assets,
  operations,
  operationAssets,
  localFiles,
  generationQueue,
  usageEvents,
} from './schema/index.js';

export type { ProfileRow, ProfileActivity, ProfilesRepo } from './repositories/profilesRepo.js';
export {
  type ProjectRow,
  type ProjectListItem,
  type ListProjectsOptions,
  type UpsertProjectInput,
  type ProjectsRepo,
  PROJECT_PAGE_SQL,
} from './repositories/projectsRepo.js';
export type { AssetRow, AssetKind, AssetRole, RecordAssetInput, AssetsRepo } from './repositories/assetsRepo.js';
export { type MediaListItem, type ListMediaOptions, type AssetListing, MEDIA_PAGE_SQL } from './repositories/assetListing.js';
export type {
  LocalFileRow,
  RecordLocalFileInput,
  VerifiedLocalFile,
  PruneResult,
  LocalFilesRepo,
} from './repositories/localFilesRepo.js';
export { type MediaCandidate, type MediaLookupOptions, type MediaLookup, MEDIA_LOOKUP_SQL } from './repositories/mediaLookup.js';
export type { ResolvedReference, ResolveOptions, ReferenceResolver } from './repositories/referenceResolver.js';
export {
  type OperationRow,
  type OperationStatus,
  type StartOperationInput,
  type SucceedOperationInput,
  type FailOperationInput,
  type OperationsRepo,
  ERROR_DETAIL_MAX,
} from './repositories/operationsRepo.js';
export { type ErrorListItem, type ListErrorsOptions, type ErrorsRepo, ERROR_PAGE_SQL } from './repositories/errorsRepo.js';
export type { JournaledUsage, UsageSurface, RecordUsageInput, UsageStats, UsageRepo } from './repositories/usageRepo.js';

export { type TasksRepo, type ListTasksOptions, CLAIM_TASK_SQL } from './tasks/tasksRepo.js';
export type { TaskTransitions, CancelOptions } from './tasks/taskTransitions.js';
export {
  type TaskStatus,
  type TaskPayload,
  type TaskCheckpoint,
  type CheckpointPatch,
  type TaskRecord,
  type CreateTaskInput,
  type ClaimantParts,
  type ClaimantLiveness,
  type SettleResult,
  TERMINAL_TASK_STATUSES,
  TASK_PAYLOAD_VERSION,
  SUPPORTED_TASK_PAYLOAD_VERSIONS,
} from './tasks/taskTypes.js';
export { formatClaimant, parseClaimant, claimantPidIsAlive } from './tasks/claimant.js';
