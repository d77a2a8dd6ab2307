import { QueueSchemaError } from '@gflow/errors';
import type { TaskCheckpoint, TaskPayload, TaskRecord, TaskStatus } from './taskTypes.js';

/** The raw row, as the task statements select it. */
export interface RawTaskRow {
  readonly taskId: string;
  readonly profile: string;
  readonly taskType: string;
  readonly payloadJson: string;
  readonly schemaVersion: number;
  readonly status: TaskStatus;
  readonly resultJson: string | null;
  readonly errorJson: string | null;
  readonly flowMediaId: string | null;
  readonly claimant: string | null;
  readonly claimedAt: string | null;
  readonly cancelRequestedAt: string | null;
  readonly checkpointJson: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly parentTaskId: string | null;
  readonly stepIndex: number | null;
  readonly idempotencyKey: string | null;
}

export const TASK_COLUMNS = `task_id AS taskId, profile_name AS profile, task_type AS taskType, payload_json AS payloadJson,
  schema_version AS schemaVersion, status, result_json AS resultJson, error_json AS errorJson, flow_media_id AS flowMediaId,
  claimant, claimed_at AS claimedAt, cancel_requested_at AS cancelRequestedAt, checkpoint_json AS checkpointJson,
  created_at AS createdAt, updated_at AS updatedAt, parent_task_id AS parentTaskId, step_index AS stepIndex,
  idempotency_key AS idempotencyKey`;

function parseJson(text: string, what: string, taskId: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new QueueSchemaError(`The ${what} of task ${taskId} is not valid JSON.`, { cause: error });
  }
}

export function toTaskRecord(row: RawTaskRow): TaskRecord {
  return {
    taskId: row.taskId,
    profile: row.profile,
    taskType: row.taskType,
    payload: parseJson(row.payloadJson, 'payload', row.taskId) as TaskPayload,
    schemaVersion: row.schemaVersion,
    status: row.status,
    result: row.resultJson === null ? null : parseJson(row.resultJson, 'result', row.taskId),
    error: row.errorJson === null ? null : (parseJson(row.errorJson, 'error', row.taskId) as Record<string, unknown>),
    flowMediaId: row.flowMediaId,
    claimant: row.claimant,
    claimedAt: row.claimedAt,
    cancelRequestedAt: row.cancelRequestedAt,
    checkpoint:
      row.checkpointJson === null ? null : (parseJson(row.checkpointJson, 'checkpoint', row.taskId) as TaskCheckpoint),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    parentTaskId: row.parentTaskId,
    stepIndex: row.stepIndex,
    idempotencyKey: row.idempotencyKey,
  };
}

export { initialCheckpoint } from './taskRules.js';
