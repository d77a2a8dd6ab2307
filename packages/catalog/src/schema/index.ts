import { assets, localFiles, operationAssets, operations, profiles, projects } from './catalogTables.js';
import { generationQueue, uploads, usageEvents, videoChains } from './queueTables.js';

export {
  assets,
  localFiles,
  operationAssets,
  operations,
  profiles,
  projects,
  generationQueue,
  usageEvents,
  videoChains,
  uploads,
};

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
  videoChains,
  uploads,
} as const;

export type CatalogSchema = typeof catalogSchema;
