import type { Gflow } from '@gflow/core';

type Catalog = Gflow['catalog'];

/**
 * The read-only slice of the local catalog the catalog resources use
 * (gflow://media/{media_id}, gflow://projects/{project_id}): listings,
 * lookups and file verification, nothing that writes.
 */
export interface GflowCatalogReader {
  readonly profiles: Pick<Catalog['profiles'], 'list'>;
  readonly projects: Pick<Catalog['projects'], 'get' | 'list'>;
  readonly assets: Pick<Catalog['assets'], 'list'>;
  readonly localFiles: Pick<Catalog['localFiles'], 'verify' | 'listForAsset'>;
  readonly media: Pick<Catalog['media'], 'lookup'>;
}

/**
 * The part of @gflow/core's runtime this adapter uses. A real `Gflow`
 * satisfies it; naming the members keeps the adapter honest about what it
 * touches (list operations, run one, read tasks, the schema text, usage, and
 * a read-only view of the catalog).
 */
export type GflowLike = Pick<Gflow, 'settings' | 'layout' | 'logger' | 'operations' | 'operation' | 'run' | 'close' | 'tasks' | 'schemaSql' | 'recordUsage' | 'ready'> & {
  readonly catalog: GflowCatalogReader;
};

/** core's structured stderr logger. */
export type GflowLogger = Gflow['logger'];
