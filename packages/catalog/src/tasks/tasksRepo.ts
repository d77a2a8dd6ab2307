import { BadParameterError, DataIntegrityError, QueueSchemaError, toProblem } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { type Page, type PageOptions, normalisePage, toPage } from '../paging.js';
import type { ProfilesRepo } from '../repositories/profilesRepo.js';
import { assertProfileName } from '../validation.js';
import { type RawTaskRow, TASK_COLUMNS, initialCheckpoint, toTaskRecord } from './taskRow.js';
import { checkedTaskInput, isSupportedPayload, unsupportedPayloadError } from './taskRules.js';
import { type TaskTransitions, createTaskTransitions } from './taskTransitions.js';
import type {
  ClaimantLiveness,
  CreateTaskInput,
  SettleOptions,
  SettleResult,
  TaskRecord,
  TaskStatus,
} from './taskTypes.js';
import { settleAbandonedTasks } from './settleAbandoned.js';

export interface ListTasksOptions extends PageOptions {
  readonly profile?: string;
  readonly status?: TaskStatus;
  /** Only single generations and runs, not the steps of runs. */
  readonly topLevel?: boolean;
  /** Only rows of this task type (`story`: the movies). */
  readonly taskType?: string;
}

export interface TasksRepo extends TaskTransitions {
  create(input: CreateTaskInput): TaskRecord;
  get(taskId: string): TaskRecord | undefined;
  /** Newest first; limit 1..1000 (default 50). */
  list(options?: ListTasksOptions): Page<TaskRecord>;
  /**
   * Atomically moves a `pending` task to `working` for `claimant`, in one
   * BEGIN IMMEDIATE transaction: of any number of processes racing, exactly
   * one gets the record; the others get `null`. A payload whose schema_version
   * this code does not support is settled `failed` and QueueSchemaError thrown.
   */
  claim(taskId: string, claimant: string): TaskRecord | null;
  /** Claims the oldest pending top-level task of a profile (a run's steps are run by their run), or returns null. */
  claimNext(profile: string, claimant: string): TaskRecord | null;
  /** A run's steps, by position then age (the newest row of a position is its current attempt). */
  steps(parentTaskId: string): TaskRecord[];
  /** The row a profile's idempotency key names, if any. */
  findByIdempotencyKey(profile: string, key: string): TaskRecord | undefined;
  /**
   * Settle-at-startup: every `working` row whose claimant is not alive becomes
   * `indeterminate` when its checkpoint says `may_have_spent`; before that, `cancelled`
   * when a cancel was asked for, `pending` again when `options.requeue` says its caller
   * asked for a background run (a bounded number of times), else `failed`.
   * Rows of live claimants are never touched.
   */
  settleAbandoned(liveness: ClaimantLiveness, options?: SettleOptions): SettleResult;
  /**
   * The process that queued a `pending` task writes itself as its claimant while it hands the
   * task to a worker, so other processes know a live process still answers for it (a claim
   * overwrites it). False when the task is no longer pending.
   */
  noteHandover(taskId: string, claimant: string): boolean;
}

/** How many times a task was queued again (its checkpoint's `requeues`); 0 when unknown. */
function requeuesOf(checkpointJson: string | null | undefined): number {
  if (!checkpointJson) return 0;
  try {
    const requeues = (JSON.parse(checkpointJson) as { requeues?: unknown }).requeues;
    return typeof requeues === 'number' && Number.isSafeInteger(requeues) && requeues > 0 ? requeues : 0;
  } catch {
    return 0;
  }
}

/**
 * The claim statement, exported so the bench and the plan test run the same SQL. A row claimed
 * again (a run requeued for its resume) keeps its checkpoint: may_have_spent never turns back.
 */
export const CLAIM_TASK_SQL = `UPDATE generation_queue SET status = 'working', claimant = @claimant, claimed_at = @now,
  updated_at = @now, checkpoint_json = CASE WHEN checkpoint_json IS NULL THEN @checkpoint
    ELSE json_set(checkpoint_json, '$.claimant', @claimant, '$.phase', 'claimed') END
  WHERE task_id = @taskId AND status = 'pending' RETURNING ${TASK_COLUMNS}`;

export function createTasksRepo(ctx: CatalogContext, profilesRepo: ProfilesRepo): TasksRepo {
  const insert = ctx.db.prepare(
    `INSERT INTO generation_queue (task_id, profile_name, task_type, payload_json, schema_version, status, created_at,
       updated_at, parent_task_id, step_index, idempotency_key)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?) RETURNING ${TASK_COLUMNS}`,
  );
  const get = ctx.db.prepare(`SELECT ${TASK_COLUMNS} FROM generation_queue WHERE task_id = ?`);
  const claimStmt = ctx.db.prepare(CLAIM_TASK_SQL);
  const nextPending = ctx.db.prepare(
    // rowid breaks ties within a millisecond in insertion order (task ids are random).
    `SELECT task_id AS taskId FROM generation_queue WHERE profile_name = ? AND status = 'pending' AND parent_task_id IS NULL
     ORDER BY created_at, rowid LIMIT 1`,
  );
  const listStmt = ctx.db.prepare(
    `SELECT ${TASK_COLUMNS} FROM generation_queue WHERE (@profile IS NULL OR profile_name = @profile)
     AND (@status IS NULL OR status = @status) AND (@topLevel = 0 OR parent_task_id IS NULL)
     AND (@taskType IS NULL OR task_type = @taskType)
     ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
  );
  const stepsStmt = ctx.db.prepare(
    `SELECT ${TASK_COLUMNS} FROM generation_queue WHERE parent_task_id = ? ORDER BY step_index, created_at, rowid`,
  );
  const byKey = ctx.db.prepare(
    `SELECT ${TASK_COLUMNS} FROM generation_queue WHERE profile_name = ? AND idempotency_key = ?`,
  );
  const previousCheckpoint = ctx.db.prepare(`SELECT checkpoint_json AS json FROM generation_queue WHERE task_id = ?`);
  const handover = ctx.db.prepare(
    `UPDATE generation_queue SET claimant = ?, updated_at = ? WHERE task_id = ? AND status = 'pending'`,
  );
  const refuse = ctx.db.prepare(
    `UPDATE generation_queue SET status = 'failed', error_json = ?, updated_at = ? WHERE task_id = ? AND status = 'working'`,
  );

  const transitions = createTaskTransitions(ctx);

  const claimIn = (taskId: string, claimant: string): TaskRecord | null => {
    const requeues = requeuesOf((previousCheckpoint.get(taskId) as { json: string | null } | undefined)?.json);
    const row = claimStmt.get({
      taskId,
      claimant,
      now: ctx.now(),
      checkpoint: JSON.stringify({ ...initialCheckpoint(claimant), ...(requeues > 0 ? { requeues } : {}) }),
    }) as RawTaskRow | undefined;
    if (row === undefined) return null;
    if (!isSupportedPayload(row.schemaVersion)) {
      const error = unsupportedPayloadError(row.schemaVersion);
      refuse.run(JSON.stringify({ ...toProblem(error), exit_code: error.exitCode }), ctx.now(), taskId);
      return { ...toTaskRecord(row), status: 'failed' };
    }
    return toTaskRecord(row);
  };
  const throwIfRefused = (record: TaskRecord | null): TaskRecord | null => {
    if (record !== null && record.status === 'failed') {
      throw new QueueSchemaError(`Task payload schema_version ${record.schemaVersion} is not supported by this gflow.`);
    }
    return record;
  };

  return {
    ...transitions,
    create(input) {
      if (input.pool !== undefined)
        throw new BadParameterError('A profile pool needs the fleet (GFLOW_FLEET_URL): this catalog has no pools.', {
          extensions: { parameter: 'profile_pool' },
        });
      const { taskId, payload: checked, version } = checkedTaskInput(input);
      const payload = JSON.stringify(checked);
      const { parent, idempotencyKey } = input;
      return ctx.write(() => {
        profilesRepo.touch(input.profile);
        if (idempotencyKey !== undefined && byKey.get(input.profile, idempotencyKey) !== undefined)
          throw new DataIntegrityError(`A task with idempotency key ${idempotencyKey} exists already.`, {
            extensions: { idempotency_key: idempotencyKey },
          });
        if (parent !== undefined && get.get(parent.taskId) === undefined)
          throw new DataIntegrityError(`No run ${parent.taskId} to add a step to.`);
        const now = ctx.now();
        const row = insert.get(
          taskId,
          input.profile,
          input.taskType,
          payload,
          version,
          now,
          now,
          parent?.taskId ?? null,
          parent?.stepIndex ?? null,
          idempotencyKey ?? null,
        );
        return toTaskRecord(row as RawTaskRow);
      });
    },
    get(taskId) {
      const row = get.get(taskId) as RawTaskRow | undefined;
      return row === undefined ? undefined : toTaskRecord(row);
    },
    list(options = {}) {
      const { limit, offset } = normalisePage(options, 50, 1000);
      const rows = listStmt.all({
        profile: options.profile === undefined ? null : assertProfileName(options.profile),
        status: options.status ?? null,
        topLevel: options.topLevel === true ? 1 : 0,
        taskType: options.taskType ?? null,
        limit: limit + 1,
        offset,
      }) as RawTaskRow[];
      return toPage(rows.map(toTaskRecord), limit, offset);
    },
    claim(taskId, claimant) {
      return throwIfRefused(ctx.write(() => claimIn(taskId, claimant)));
    },
    claimNext(profile, claimant) {
      assertProfileName(profile);
      return throwIfRefused(
        ctx.write(() => {
          const next = nextPending.get(profile) as { taskId: string } | undefined;
          return next === undefined ? null : claimIn(next.taskId, claimant);
        }),
      );
    },
    steps(parentTaskId) {
      return (stepsStmt.all(parentTaskId) as RawTaskRow[]).map(toTaskRecord);
    },
    findByIdempotencyKey(profile, key) {
      const row = byKey.get(assertProfileName(profile), key) as RawTaskRow | undefined;
      return row === undefined ? undefined : toTaskRecord(row);
    },
    settleAbandoned(liveness, options) {
      return settleAbandonedTasks(ctx, liveness, options);
    },
    noteHandover(taskId, claimant) {
      return ctx.write(() => handover.run(claimant, ctx.now(), taskId).changes === 1);
    },
  };
}
