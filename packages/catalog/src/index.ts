// @gflow/catalog: the public API. Curated on purpose (no `export *`).
export { type Catalog, openCatalog } from './catalog.js';
export type { HistoryPromptsMode } from './context.js';

export { SCHEMA_SQL } from './migrations/loadMigrations.js';
export { migrationStatus } from './migrations/migrate.js';

export { profiles, projects, assets, operations, localFiles } from './schema/index.js';

export type { MediaListItem } from './repositories/assetListing.js';
export type { ProjectToSync } from './repositories/projectsRepo.js';
export type { LinkedAsset } from './repositories/lineageRepo.js';
export type { LocalFileRow } from './repositories/localFilesRepo.js';

export type { JournaledUsage } from './repositories/usageRepo.js';

export type { CheckpointPatch, TaskStatus, TaskRecord } from './tasks/taskTypes.js';
export { formatClaimant, claimantPidIsAlive } from './tasks/claimant.js';
