import { DataIntegrityError } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { type RawTaskRow, TASK_COLUMNS, toTaskRecord } from './taskRow.js';
import {
  assertHeld,
  assertRecoverable,
  assertRequeueable,
  cancelOutcomeOf,
  failedStatusOf,
  mergeCheckpoint,
  releasedCheckpoint,
  requeuedCheckpoint,
  taskProblemOf,
} from './taskRules.js';
import type { CheckpointPatch, TaskRecord } from './taskTypes.js';

export interface CancelOptions {
  /**
   * The worker that holds the task. With it, a `working` task is finalised:
   * `indeterminate` when its checkpoint says may_have_spent, else `cancelled`.
   * Without it, a `working` task only gets `cancel_requested_at` (the worker
   * polls it and finalises); a `pending` task is cancelled at once.
   */
  readonly claimant?: string;
}

export interface TaskTransitions {
  /** Merges a checkpoint patch; only the current claimant of a `working` task may. */
  updateCheckpoint(taskId: string, claimant: string, patch: CheckpointPatch): TaskRecord;
  /** `working` → `completed` with the wait=true payload. */
  complete(
    taskId: string,
    claimant: string,
    result: unknown,
    options?: { readonly flowMediaId?: string | null },
  ): TaskRecord;
  /**
   * `working` → `failed` with problem details (+ exit_code) of `error`; but
   * `indeterminate` when the checkpoint says may_have_spent and the error is a
   * cancellation (a job cancelled after its submit click is never `failed`).
   */
  fail(
    taskId: string,
    claimant: string,
    error: unknown,
    options?: { readonly flowMediaId?: string | null },
  ): TaskRecord;
  /**
   * The process that holds a `working` task stops before its submit (a server or worker shutting
   * down, not a cancel of the task): the task is `pending` again with no claimant, its checkpoint
   * kept (phase `requeued`, `requeues` counted, as for a process that died), so the next worker or
   * server of its profile runs it. Undefined, and nothing changed, when it may not be: not held by
   * `claimant`, its checkpoint says may_have_spent, a cancel was asked for, or it was queued again
   * `maxRequeues` times already. A run (`run: true`) is released even when a step may have spent:
   * its steps keep their own states, and whoever resumes it recovers such a step by its ids.
   */
  release(
    taskId: string,
    claimant: string,
    options?: { readonly maxRequeues?: number; readonly run?: boolean },
  ): TaskRecord | undefined;
  /** tasks/cancel; see {@link CancelOptions}. Terminal tasks are returned unchanged. */
  cancel(taskId: string, options?: CancelOptions): TaskRecord;
  /**
   * Resumes a run: a top-level run row that ended (`failed`, `cancelled`, `indeterminate`, as a
   * dead runner's row is settled) becomes `pending` again, for whoever runs it next (this process,
   * a worker, a daemon), its outcome cleared and its checkpoint kept (may_have_spent never turns
   * back). Its steps keep their own states.
   */
  requeue(taskId: string): TaskRecord;
  /**
   * A step that may have been submitted and did not complete (`indeterminate`, `failed` or
   * `cancelled` after its submit) whose media were recovered by their ids: `completed` with
   * `result`. Only the holder of its run may.
   */
  recover(taskId: string, claimant: string, result: unknown): TaskRecord;
}

export function createTaskTransitions(ctx: CatalogContext): TaskTransitions {
  const get = ctx.db.prepare(`SELECT ${TASK_COLUMNS} FROM generation_queue WHERE task_id = ?`);
  const setCheckpoint = ctx.db.prepare(
    `UPDATE generation_queue SET checkpoint_json = ?, updated_at = ? WHERE task_id = ? RETURNING ${TASK_COLUMNS}`,
  );
  const finish = ctx.db.prepare(
    `UPDATE generation_queue SET status = @status, result_json = @result, error_json = @error,
       flow_media_id = coalesce(@flowMediaId, flow_media_id), updated_at = @now
     WHERE task_id = @taskId RETURNING ${TASK_COLUMNS}`,
  );
  const requeueStmt = ctx.db.prepare(
    `UPDATE generation_queue SET status = 'pending', claimant = NULL, claimed_at = NULL, result_json = NULL,
       error_json = NULL, cancel_requested_at = NULL, checkpoint_json = @checkpoint, updated_at = @now
     WHERE task_id = @taskId RETURNING ${TASK_COLUMNS}`,
  );
  const releaseStmt = ctx.db.prepare(
    `UPDATE generation_queue SET status = 'pending', claimant = NULL, claimed_at = NULL, checkpoint_json = @checkpoint,
       updated_at = @now WHERE task_id = @taskId AND status = 'working' AND claimant = @claimant
       AND cancel_requested_at IS NULL RETURNING ${TASK_COLUMNS}`,
  );
  const requestCancel = ctx.db.prepare(
    `UPDATE generation_queue SET cancel_requested_at = coalesce(cancel_requested_at, ?), updated_at = ? WHERE task_id = ? RETURNING ${TASK_COLUMNS}`,
  );

  const load = (taskId: string): RawTaskRow => {
    const row = get.get(taskId) as RawTaskRow | undefined;
    if (row === undefined)
      throw new DataIntegrityError(`No task with id ${taskId}.`, { extensions: { task_id: taskId } });
    return row;
  };
  const held = (taskId: string, claimant: string): TaskRecord => assertHeld(toTaskRecord(load(taskId)), claimant);
  const settle = (
    taskId: string,
    status: 'completed' | 'failed' | 'cancelled' | 'indeterminate',
    result: unknown,
    error: Readonly<Record<string, unknown>> | null,
    flowMediaId: string | null | undefined,
  ): TaskRecord =>
    toTaskRecord(
      finish.get({
        taskId,
        status,
        result: result === undefined || result === null ? null : JSON.stringify(result),
        error: error === null ? null : JSON.stringify(error),
        flowMediaId: flowMediaId ?? null,
        now: ctx.now(),
      }) as RawTaskRow,
    );

  return {
    updateCheckpoint(taskId, claimant, patch) {
      return ctx.write(() => {
        const next = mergeCheckpoint(held(taskId, claimant).checkpoint, claimant, patch);
        return toTaskRecord(setCheckpoint.get(JSON.stringify(next), ctx.now(), taskId) as RawTaskRow);
      });
    },
    complete(taskId, claimant, result, options = {}) {
      return ctx.write(() => {
        held(taskId, claimant);
        return settle(taskId, 'completed', result, null, options.flowMediaId);
      });
    },
    fail(taskId, claimant, error, options = {}) {
      return ctx.write(() => {
        const record = held(taskId, claimant);
        const problem = taskProblemOf(error);
        const status = failedStatusOf(record, problem) as 'failed' | 'cancelled' | 'indeterminate';
        return settle(taskId, status, null, problem, options.flowMediaId);
      });
    },
    release(taskId, claimant, options = {}) {
      return ctx.write(() => {
        const next = releasedCheckpoint(toTaskRecord(load(taskId)), claimant, options);
        if (next === undefined) return undefined;
        const row = releaseStmt.get({ taskId, claimant, now: ctx.now(), checkpoint: JSON.stringify(next) });
        return row === undefined ? undefined : toTaskRecord(row as RawTaskRow);
      });
    },
    requeue(taskId) {
      return ctx.write(() => {
        const record = toTaskRecord(load(taskId));
        assertRequeueable(record);
        const checkpoint = requeuedCheckpoint(record);
        const row = requeueStmt.get({ taskId, now: ctx.now(), checkpoint: JSON.stringify(checkpoint) });
        return toTaskRecord(row as RawTaskRow);
      });
    },
    recover(taskId, claimant, result) {
      return ctx.write(() => {
        const parent = assertRecoverable(toTaskRecord(load(taskId)));
        held(parent, claimant);
        return settle(taskId, 'completed', result, null, undefined);
      });
    },
    cancel(taskId, options = {}) {
      return ctx.write(() => {
        const record = toTaskRecord(load(taskId));
        const outcome = cancelOutcomeOf(record, options.claimant);
        if (outcome === 'none') return record;
        if (outcome === 'request') {
          const now = ctx.now();
          return toTaskRecord(requestCancel.get(now, now, taskId) as RawTaskRow);
        }
        return settle(taskId, outcome === 'cancel' ? 'cancelled' : 'indeterminate', null, null, undefined);
      });
    },
  };
}
