import { randomUUID } from 'node:crypto';
import {
  BadParameterError,
  DataIntegrityError,
  DaemonRecoveryError,
  QueueSchemaError,
  exitCodeOf,
  toProblem,
} from '@gflow/errors';
import { assertProfileName } from '../validation.js';
import {
  type CheckpointPatch,
  type CreateTaskInput,
  type SettleOptions,
  SUPPORTED_TASK_PAYLOAD_VERSIONS,
  TASK_PAYLOAD_VERSION,
  type TaskCheckpoint,
  type TaskPayload,
  type TaskRecord,
  type TaskStatus,
} from './taskTypes.js';

/**
 * The queue's transition rules, once, for every backend of the queue port (this catalog's SQLite
 * queue and the fleet's PostgreSQL queue): each backend reads the row, asks these functions what
 * the row becomes, and writes it in its own transaction. Pure: no SQL, no clock.
 */

const TASK_ID = /^[\w-]{1,128}$/;
/** An idempotency key: printable, no control characters, bounded. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,200}$/;

/** A new row as every backend writes it: its id, its payload with `schema_version`, the input checked. */
export interface CheckedTaskInput {
  readonly taskId: string;
  readonly payload: Record<string, unknown> & { readonly schema_version: number };
  readonly version: number;
}

/** Checks a new task's input (BadParameterError, QueueSchemaError) and gives it its id and versioned payload. */
export function checkedTaskInput(input: CreateTaskInput): CheckedTaskInput {
  assertProfileName(input.profile);
  const taskId = input.taskId ?? randomUUID();
  if (!TASK_ID.test(taskId)) throw new BadParameterError('task_id must match ^[\\w-]{1,128}$.');
  if (!/^[\w-]{1,64}$/.test(input.taskType)) throw new BadParameterError('task_type must be a short slug.');
  const version = input.payload['schema_version'] ?? TASK_PAYLOAD_VERSION;
  if (typeof version !== 'number' || !SUPPORTED_TASK_PAYLOAD_VERSIONS.includes(version)) {
    throw new QueueSchemaError(`Task payload schema_version ${String(version)} is not supported by this gflow.`);
  }
  if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(input.idempotencyKey))
    throw new BadParameterError('idempotency_key must be 1–200 printable characters.');
  return { taskId, payload: { ...input.payload, schema_version: version }, version };
}

/** The refusal of a row whose payload version this code cannot read (it is settled `failed` with it, never run). */
export function unsupportedPayloadError(version: number): QueueSchemaError {
  return new QueueSchemaError(`Task payload schema_version ${version} is not supported by this gflow.`, {
    extensions: { schema_version: version, supported: SUPPORTED_TASK_PAYLOAD_VERSIONS },
  });
}

/** Whether a claimed row's payload version is one this code runs. */
export function isSupportedPayload(version: number): boolean {
  return SUPPORTED_TASK_PAYLOAD_VERSIONS.includes(version);
}

/** A fresh checkpoint for a just-claimed task. */
export function initialCheckpoint(claimant: string | null): TaskCheckpoint {
  return {
    schema_version: 1,
    claimant,
    phase: 'claimed',
    may_have_spent: false,
    project_id: null,
    operation_id: null,
    media_ids: [],
    workflow_ids: [],
  };
}

function union(a: readonly string[], b: readonly string[] | undefined): string[] {
  return b === undefined ? [...a] : [...new Set([...a, ...b])];
}

/** A checkpoint with `patch` merged in: arrays united in order, may_have_spent and submitting_at never turn back. */
export function mergeCheckpoint(
  current: TaskCheckpoint | null,
  claimant: string,
  patch: CheckpointPatch,
): TaskCheckpoint {
  const base = current ?? initialCheckpoint(claimant);
  return {
    ...base,
    claimant,
    phase: patch.phase ?? base.phase,
    may_have_spent: base.may_have_spent || patch.may_have_spent === true,
    project_id: patch.project_id === undefined ? base.project_id : patch.project_id,
    operation_id: patch.operation_id === undefined ? base.operation_id : patch.operation_id,
    media_ids: union(base.media_ids, patch.media_ids),
    workflow_ids: union(base.workflow_ids, patch.workflow_ids),
    ...(base.submitting_at !== undefined || patch.submitting_at === undefined
      ? {}
      : { submitting_at: patch.submitting_at }),
  };
}

/** A claimed task's checkpoint when it is claimed again (a requeued run): may_have_spent never turns back. */
export function reclaimedCheckpoint(current: TaskCheckpoint | null, claimant: string): TaskCheckpoint {
  return current === null ? initialCheckpoint(claimant) : { ...current, claimant, phase: 'claimed' };
}

/** The row is `working` and held by `claimant`, or a DataIntegrityError says it is not. */
export function assertHeld(record: TaskRecord, claimant: string): TaskRecord {
  if (record.status !== 'working' || record.claimant !== claimant) {
    throw new DataIntegrityError(`Task ${record.taskId} is ${record.status} and not held by this worker.`, {
      extensions: { task_id: record.taskId, status: record.status },
    });
  }
  return record;
}

/** Problem details of an error as a task row keeps them (+ exit_code). */
export function taskProblemOf(error: unknown): Record<string, unknown> {
  return { ...toProblem(error), exit_code: exitCodeOf(error) };
}

/**
 * What a held task that failed becomes: `failed`, but a cancellation is `cancelled` before the
 * submit click and `indeterminate` after it (a job cancelled after its click is never `failed`).
 */
export function failedStatusOf(record: TaskRecord, problem: Readonly<Record<string, unknown>>): TaskStatus {
  if (problem['exit_code'] !== 130) return 'failed';
  return record.checkpoint?.may_have_spent === true ? 'indeterminate' : 'cancelled';
}

const ENDED: readonly TaskStatus[] = ['failed', 'cancelled', 'indeterminate'];

/** Only a top-level run that ended can be resumed (requeued). */
export function assertRequeueable(record: TaskRecord): void {
  if (record.parentTaskId !== null || !ENDED.includes(record.status))
    throw new DataIntegrityError(`Task ${record.taskId} is ${record.status}: only a run that ended can be resumed.`, {
      extensions: { task_id: record.taskId, status: record.status },
    });
}

/** A requeued run's checkpoint: kept (may_have_spent never turns back), unclaimed, `resumed`. */
export function requeuedCheckpoint(record: TaskRecord): TaskCheckpoint {
  return { ...(record.checkpoint ?? initialCheckpoint(null)), claimant: null, phase: 'resumed' };
}

/** Only a step that may have been submitted and did not complete can be recovered (completed by its ids). */
export function assertRecoverable(step: TaskRecord): string {
  const spent = step.checkpoint?.may_have_spent === true;
  if (step.parentTaskId === null || !spent || !ENDED.includes(step.status))
    throw new DataIntegrityError(`Task ${step.taskId} is not a step to recover (${step.status}).`, {
      extensions: { task_id: step.taskId, status: step.status },
    });
  return step.parentTaskId;
}

/**
 * What tasks/cancel does to a row: a pending one is cancelled; a working one held by `claimant`
 * settles (`indeterminate` after its submit, else `cancelled`); a working one held by another only
 * gets `cancel_requested_at` (its holder polls it); a settled one is left alone.
 */
export function cancelOutcomeOf(
  record: TaskRecord,
  claimant: string | undefined,
): 'cancel' | 'indeterminate' | 'request' | 'none' {
  if (record.status === 'pending') return 'cancel';
  if (record.status !== 'working') return 'none';
  if (claimant === undefined || claimant !== record.claimant) return 'request';
  return record.checkpoint?.may_have_spent === true ? 'indeterminate' : 'cancel';
}

/** How often a task whose process died before its submit is queued again before it is settled `failed`. */
export const DEFAULT_MAX_REQUEUES = 3;

/** A `working` row whose claimant is dead, as settling reads it (both backends parse their own columns). */
export interface AbandonedRow {
  /** Undefined when the stored checkpoint cannot be read (which cannot prove nothing was spent); `{}` when none. */
  readonly checkpoint: Partial<TaskCheckpoint> | undefined;
  /** Undefined when the stored payload cannot be read. */
  readonly payload: TaskPayload | undefined;
  readonly cancelRequested: boolean;
  /** The caller takes this row over at once (SettleOptions.resume names it). */
  readonly resumed?: boolean;
}

/** What a dead claimant's row becomes (see {@link abandonedVerdictOf}). */
export type AbandonedVerdict = 'indeterminate' | 'failed' | 'cancelled' | 'requeued';

/**
 * What a dead claimant's row becomes. The submit click is the line: a checkpoint that says
 * may_have_spent (or cannot be read) is `indeterminate`, never run again. Before it nothing was
 * sent, so a stop someone asked for is `cancelled`, a task the caller asked to run in the
 * background (`requeue` says which) is queued again — up to `maxRequeues` times, in case the task
 * itself kills its process — and anything else (a waited call whose caller is gone) is `failed`.
 * A row the caller takes over at once (`resumed`) goes straight back to `pending` when it may run
 * again — a run (its steps decide what is recovered and what is sent), or a generation that never
 * reached its submit — and no cancel was asked for: it never shows an end it does not have.
 */
export function abandonedVerdictOf(
  row: AbandonedRow,
  options: SettleOptions,
): { verdict: AbandonedVerdict; requeues: number } {
  const { checkpoint } = row;
  const requeues = typeof checkpoint?.requeues === 'number' ? checkpoint.requeues : 0;
  if (row.resumed === true && !row.cancelRequested && mayResume(row)) return { verdict: 'requeued', requeues };
  if (checkpoint === undefined || checkpoint.may_have_spent === true) return { verdict: 'indeterminate', requeues };
  if (row.cancelRequested) return { verdict: 'cancelled', requeues };
  const mayRequeue = row.payload !== undefined && options.requeue?.(row.payload) === true;
  if (mayRequeue && requeues < (options.maxRequeues ?? DEFAULT_MAX_REQUEUES))
    return { verdict: 'requeued', requeues: requeues + 1 };
  return { verdict: 'failed', requeues };
}

/** Whether an abandoned row may run again as it is: a run, or a task whose checkpoint says nothing was submitted. */
function mayResume(row: AbandonedRow): boolean {
  if ((row.payload as { kind?: unknown } | undefined)?.kind === 'run') return true;
  return row.checkpoint !== undefined && row.checkpoint.may_have_spent !== true;
}

/** The checkpoint of an abandoned row queued again: kept, unclaimed, phase `requeued`, `requeues` counted. */
export function abandonedRequeuedCheckpoint(
  checkpoint: Partial<TaskCheckpoint> | undefined,
  requeues: number,
): Record<string, unknown> {
  return { ...checkpoint, claimant: null, phase: 'requeued', requeues };
}

/** The problem an abandoned row ends with (`indeterminate` names where credits may have gone); null for `requeued`/`cancelled`. */
export function abandonedProblemOf(
  verdict: AbandonedVerdict,
  requeues: number,
  checkpoint: Partial<TaskCheckpoint> | undefined,
): Record<string, unknown> | null {
  if (verdict === 'requeued' || verdict === 'cancelled') return null;
  const error = verdict === 'indeterminate' ? spentError(checkpoint) : unspentError(requeues);
  return { ...toProblem(error), exit_code: error.exitCode };
}

function unspentError(requeues: number): DaemonRecoveryError {
  return new DaemonRecoveryError(
    `The process running this task exited before anything was submitted; no credits were spent${requeues > 0 ? ` (it had been queued again ${requeues} time${requeues === 1 ? '' : 's'} already)` : ''}.`,
    { retryable: true },
  );
}

/** What the checkpoint names in Flow (the project, the media), for the error a person reads. */
function namedInFlow(checkpoint: Partial<TaskCheckpoint> | undefined): { project: string | null; media: string[] } {
  const media = Array.isArray(checkpoint?.media_ids) ? checkpoint.media_ids.filter((m) => typeof m === 'string') : [];
  return { project: typeof checkpoint?.project_id === 'string' ? checkpoint.project_id : null, media };
}

/** After the submit: the error names where credits may have gone (the project, the media). */
function spentError(checkpoint: Partial<TaskCheckpoint> | undefined): DaemonRecoveryError {
  const { project, media } = namedInFlow(checkpoint);
  const where = [
    project ? `Flow project ${project}` : 'the Flow project',
    ...(media.length ? [`media ${media.join(', ')}`] : []),
  ];
  return new DaemonRecoveryError(
    `The process running this task exited after the submit; credits may have been spent. Check ${where.join(', ')} before retrying.`,
    {
      retryable: false,
      extensions: {
        ...(project ? { flow_project_id: project } : {}),
        ...(media.length ? { flow_media_ids: media } : {}),
      },
    },
  );
}

/**
 * What `release` (a holder stopping before its submit) makes of a row: its checkpoint, `pending`
 * again with `requeues` counted; or undefined when it may not be released (not held by
 * `claimant`, a cancel asked for, may_have_spent unless it is a run, or the bound reached).
 */
export function releasedCheckpoint(
  record: TaskRecord,
  claimant: string,
  options: { readonly maxRequeues?: number; readonly run?: boolean },
): TaskCheckpoint | undefined {
  const checkpoint = record.checkpoint;
  const requeues = checkpoint?.requeues ?? 0;
  if (record.status !== 'working' || record.claimant !== claimant || record.cancelRequestedAt !== null)
    return undefined;
  const spent = checkpoint?.may_have_spent === true && options.run !== true;
  if (checkpoint === null || spent || requeues >= (options.maxRequeues ?? DEFAULT_MAX_REQUEUES)) return undefined;
  return { ...checkpoint, claimant: null, phase: 'requeued', requeues: requeues + 1 };
}
