import { assets, localFiles, operationAssets, operations, profiles, projects } from './catalogTables.js';
import { generationQueue, usageEvents } from './queueTables.js';

export { assets, localFiles, operationAssets, operations, profiles, projects, generationQueue, usageEvents };

/** Every drizzle table of the catalog, keyed for `drizzle({ schema })`. */
export const catalogSchema = {
  profiles,
  projects,
  assets,
  operations,
  operationAssets,
  localFiles,
  generationQueue,
  usageEvents,
} as const;

export type CatalogSchema = typeof catalogSchema;
