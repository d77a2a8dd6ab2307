import type { Operation } from './operation.js';
import { loadOperations } from './registry.js';

/**
 * Every operation, loaded (top-level await): importing this module builds every schema. The
 * library's root import does, so a runtime made by `createGflow()` from `@gflow/core` lists its
 * operations at once; gflow's own CLI imports only `@gflow/core/surfaces` and loads what it runs.
 */
export const OPERATIONS: readonly Operation[] = await loadOperations();
