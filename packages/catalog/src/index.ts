// @gflow/catalog: the public API. Curated on purpose (no `export *`).
export { type Catalog, openCatalog } from './catalog.js';
export type { HistoryPromptsMode } from './context.js';

export { SCHEMA_SQL, type Migration, loadMigrations } from './migrations/loadMigrations.js';
export { migrationStatus } from './migrations/migrate.js';

export { profiles, projects, assets, operations, localFiles } from './schema/index.js';

export type { MediaListItem } from './repositories/assetListing.js';
export type { ProjectToSync } from './repositories/projectsRepo.js';
export type { LinkedAsset } from './repositories/lineageRepo.js';
export type { LocalFileRow } from './repositories/localFilesRepo.js';

export type { JournaledUsage } from './repositories/usageRepo.js';

export type {
  CheckpointPatch,
  ClaimantLiveness,
  CreateTaskInput,
  SettleOptions,
  SettleResult,
  TaskCheckpoint,
  TaskStatus,
  TaskRecord,
} from './tasks/taskTypes.js';
export { type TaskQueue, sqliteTaskQueue } from './tasks/taskQueue.js';
export type { ListTasksOptions } from './tasks/tasksRepo.js';
export type { CancelOptions } from './tasks/taskTransitions.js';
export { type Page, normalisePage, toPage } from './paging.js';
export {
  type AbandonedVerdict,
  abandonedProblemOf,
  abandonedRequeuedCheckpoint,
  abandonedVerdictOf,
  assertHeld,
  assertRecoverable,
  assertRequeueable,
  cancelOutcomeOf,
  checkedTaskInput,
  failedStatusOf,
  isSupportedPayload,
  mergeCheckpoint,
  reclaimedCheckpoint,
  releasedCheckpoint,
  requeuedCheckpoint,
  taskProblemOf,
  unsupportedPayloadError,
} from './tasks/taskRules.js';
export { formatClaimant, claimantPidIsAlive, parseClaimant } from './tasks/claimant.js';
