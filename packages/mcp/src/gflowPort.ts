import type { Gflow } from '@gflow/core';

/**
 * The part of @gflow/core's runtime this adapter uses. A real `Gflow`
 * satisfies it; naming the members keeps the adapter honest about what it
 * touches (list operations, run one, read tasks, the schema text, usage). The
 * catalog is core's: resources read it through operations.
 */
export type GflowLike = Pick<
  Gflow,
  | 'settings'
  | 'layout'
  | 'logger'
  | 'operations'
  | 'operation'
  | 'run'
  | 'runByName'
  | 'close'
  | 'tasks'
  | 'schemaSql'
  | 'recordUsage'
  | 'ready'
>;

/** core's structured stderr logger. */
export type GflowLogger = Gflow['logger'];
