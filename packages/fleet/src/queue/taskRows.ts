import type { TaskCheckpoint, TaskPayloadRecord, TaskRecord } from '../types.js';
import type { tasks } from '../schema/fleetTables.js';

/** A task row as drizzle reads it from `gflow.tasks`. */
export type TaskRow = typeof tasks.$inferSelect;

/** The columns of a row that goes back to the queue as new (requeued, or moved to another profile): no holder, no end, no cancel asked. */
export const BACK_TO_PENDING = {
  status: 'pending',
  claimant: null,
  claimedAt: null,
  result: null,
  error: null,
  cancelRequestedAt: null,
} as const;

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** The queue port's record of a row: the same shape the embedded queue answers (ISO times with ms and Z). */
export function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    taskId: row.taskId,
    profile: row.profileName,
    taskType: row.taskType,
    payload: row.payload as TaskPayloadRecord,
    schemaVersion: row.schemaVersion,
    status: row.status,
    result: row.result ?? null,
    error: row.error ?? null,
    flowMediaId: row.flowMediaId,
    claimant: row.claimant,
    claimedAt: iso(row.claimedAt),
    cancelRequestedAt: iso(row.cancelRequestedAt),
    checkpoint: (row.checkpoint as TaskCheckpoint | null) ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    parentTaskId: row.parentTaskId,
    stepIndex: row.stepIndex,
    idempotencyKey: row.idempotencyKey,
  };
}
