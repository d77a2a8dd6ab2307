// The catalog's queue vocabulary the fleet implements (types only: the queue port and its records).
import type { TaskRecord } from '@gflow/catalog';

export type {
  AbandonedVerdict,
  CancelOptions,
  CheckpointPatch,
  ClaimantLiveness,
  CreateTaskInput,
  ListTasksOptions,
  Page,
  SettleOptions,
  SettleResult,
  TaskCheckpoint,
  TaskQueue,
  TaskRecord,
  TaskStatus,
} from '@gflow/catalog';

/** A row's payload as the queue keeps it. */
export type TaskPayloadRecord = TaskRecord['payload'];
