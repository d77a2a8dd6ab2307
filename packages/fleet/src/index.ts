// @gflow/fleet: gflow beyond one machine. The catalog's queue port on PostgreSQL (dispatch through
// pg-boss), the worker registry, pool routing and the shared catalog tables (drizzle's pg dialect).
// Core loads it only when GFLOW_FLEET_URL is set. Curated on purpose (no `export *`).
export {
  type Fleet,
  type OpenFleetOptions,
  type RefusalPolicy,
  type RerouteRequest,
  type Rerouted,
  openFleet,
} from './openFleet.js';
export { type DispatchTimings, queueOf } from './queue/dispatch.js';
export type { PgTaskQueue } from './queue/pgTaskQueue.js';
export { canTake, pickProfile } from './routing/pickProfile.js';
export type { FleetProfile, HeldProfile, ProfileFacts, WorkKind, WorkerRegistry } from './workers/workerRegistry.js';
export type {
  SharedCatalog,
  SharedMedia,
  SharedMediaItem,
  SharedProject,
  SharedRecord,
} from './shared/sharedCatalog.js';
export { MountedOutputStore, type OutputStore } from './shared/outputStore.js';
