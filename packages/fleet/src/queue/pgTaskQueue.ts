import {
  abandonedProblemOf,
  abandonedRequeuedCheckpoint,
  abandonedVerdictOf,
  assertHeld,
  assertRecoverable,
  assertRequeueable,
  cancelOutcomeOf,
  checkedTaskInput,
  failedStatusOf,
  isSupportedPayload,
  mergeCheckpoint,
  normalisePage,
  reclaimedCheckpoint,
  releasedCheckpoint,
  requeuedCheckpoint,
  taskProblemOf,
  toPage,
  unsupportedPayloadError,
} from '@gflow/catalog';
import { DataIntegrityError, QueueSchemaError } from '@gflow/errors';
import { assertProfileName } from '@gflow/flow-facts';
import { type SQL, and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { tasks } from '../schema/fleetTables.js';
import type { FleetDb, FleetTx } from '../connection.js';
import type {
  AbandonedVerdict,
  ClaimantLiveness,
  SettleOptions,
  TaskCheckpoint,
  TaskPayloadRecord,
  TaskQueue,
  TaskRecord,
} from '../types.js';
import type { Dispatch } from './dispatch.js';
import { guarded } from './guarded.js';
import { BACK_TO_PENDING, type TaskRow, toTaskRecord } from './taskRows.js';

const NOW = sql`clock_timestamp()`;

export interface PgTaskQueueOptions {
  readonly db: FleetDb;
  readonly dispatch: Dispatch;
  /** Whether a claimant's worker is alive (the fleet's registry). */
  readonly claimantAlive: (claimant: string) => Promise<boolean>;
  /**
   * A held row is about to end `failed`: a pool's task may move to another profile instead, in the
   * same transaction (the fleet's rerouting), so no reader ever sees it failed. Answers the moved
   * row, or undefined to let it fail.
   */
  readonly onFailed?: (
    tx: FleetTx,
    row: TaskRow,
    problem: Readonly<Record<string, unknown>>,
  ) => Promise<TaskRecord | undefined>;
}

/** The fleet's queue port: `gflow.tasks` rows moved by the catalog's rules, a top-level row's job sent with it. */
export type PgTaskQueue = TaskQueue & {
  /** A row locked for this transaction (`SELECT … FOR UPDATE`), or a DataIntegrityError. */
  lockedRow(tx: FleetTx, taskId: string): Promise<TaskRow>;
};

async function rowOrNull(tx: FleetTx, taskId: string): Promise<TaskRow | undefined> {
  const [row] = await tx.select().from(tasks).where(eq(tasks.taskId, taskId)).for('update');
  return row;
}

async function lockedRow(tx: FleetTx, taskId: string): Promise<TaskRow> {
  const row = await rowOrNull(tx, taskId);
  if (row === undefined)
    throw new DataIntegrityError(`No task with id ${taskId}.`, { extensions: { task_id: taskId } });
  return row;
}

type Ending = 'completed' | 'failed' | 'cancelled' | 'indeterminate';

/** Writes a settled status (and what goes with it) on a locked row. */
async function settle(
  tx: FleetTx,
  taskId: string,
  status: Ending,
  fields: { result?: unknown; error?: Record<string, unknown> | null; flowMediaId?: string | null | undefined },
): Promise<TaskRecord> {
  const [row] = await tx
    .update(tasks)
    .set({
      status,
      result: fields.result ?? null,
      error: fields.error ?? null,
      ...(fields.flowMediaId ? { flowMediaId: fields.flowMediaId } : {}),
      updatedAt: NOW,
    })
    .where(eq(tasks.taskId, taskId))
    .returning();
  return toTaskRecord(row as TaskRow);
}

/** `pending` → `working` on a locked row (a payload this code cannot read is settled `failed` and refused). */
async function claimRow(tx: FleetTx, row: TaskRow, claimant: string): Promise<TaskRecord | 'refused'> {
  const record = toTaskRecord(row);
  const [claimed] = await tx
    .update(tasks)
    .set({
      status: 'working',
      claimant,
      claimedAt: NOW,
      updatedAt: NOW,
      checkpoint: { ...reclaimedCheckpoint(record.checkpoint, claimant) },
    })
    .where(eq(tasks.taskId, row.taskId))
    .returning();
  if (isSupportedPayload(row.schemaVersion)) return toTaskRecord(claimed as TaskRow);
  await tx
    .update(tasks)
    .set({ status: 'failed', error: taskProblemOf(unsupportedPayloadError(row.schemaVersion)), updatedAt: NOW })
    .where(eq(tasks.taskId, row.taskId));
  return 'refused';
}

function predicateOf(liveness: ClaimantLiveness): (claimant: string) => boolean {
  if ('isAlive' in liveness) return liveness.isAlive;
  const live = new Set(liveness.liveClaimants);
  return (claimant) => live.has(claimant);
}

/**
 * The `working` rows of dead claimants, locked for this transaction. Only those rows are locked,
 * in task-id order, and a row another transaction holds is waited for, never skipped: a worker
 * settling the rows of the worker it took a run over from must see every one of them settled (a
 * step left `working` under the dead claimant would read as running elsewhere and stop the run),
 * while other workers' heartbeats look at the same rows. A row that changed while waited for is
 * read again under the lock (PostgreSQL rechecks the `WHERE`), so it is settled at most once.
 */
async function lockAbandoned(tx: FleetTx, isAlive: (claimant: string) => boolean): Promise<TaskRow[]> {
  const working = await tx
    .select({ taskId: tasks.taskId, claimant: tasks.claimant })
    .from(tasks)
    .where(eq(tasks.status, 'working'));
  const dead = working.filter((row) => row.claimant === null || !isAlive(row.claimant)).map((row) => row.taskId);
  if (dead.length === 0) return [];
  const locked = await tx
    .select()
    .from(tasks)
    .where(and(inArray(tasks.taskId, dead), eq(tasks.status, 'working')))
    .orderBy(asc(tasks.taskId))
    .for('update');
  return locked.filter((row) => row.claimant === null || !isAlive(row.claimant));
}

/**
 * Settles one locked `working` row of a dead claimant by the catalog's rule (abandonedVerdictOf):
 * ended with its problem, or `pending` again (a background task that died before its submit) with a
 * job of its own so a worker of its profile takes it — or with none, when it is the row the caller
 * resumes at once (SettleOptions.resume).
 */
async function settleAbandonedRow(
  tx: FleetTx,
  dispatch: Dispatch,
  row: TaskRow,
  options: SettleOptions,
): Promise<AbandonedVerdict> {
  const checkpoint = (row.checkpoint as Partial<TaskCheckpoint> | null) ?? {};
  const abandoned = {
    checkpoint: typeof checkpoint === 'object' ? checkpoint : undefined,
    payload: row.payload as TaskPayloadRecord,
    cancelRequested: row.cancelRequestedAt !== null,
    resumed: options.resume === row.taskId,
  };
  const { verdict, requeues } = abandonedVerdictOf(abandoned, options);
  if (verdict !== 'requeued') {
    await settle(tx, row.taskId, verdict, { error: abandonedProblemOf(verdict, requeues, abandoned.checkpoint) });
    return verdict;
  }
  await tx
    .update(tasks)
    .set({
      status: 'pending',
      claimant: null,
      claimedAt: null,
      error: null,
      checkpoint: abandonedRequeuedCheckpoint(abandoned.checkpoint, requeues),
      updatedAt: NOW,
    })
    .where(eq(tasks.taskId, row.taskId));
  // A row the caller resumes now is its current job's: a job of its own would run it twice over.
  if (row.parentTaskId === null && !abandoned.resumed) await dispatch.send(tx, row.profileName, row.taskId);
  return verdict;
}

function refusedClaim(version: number): QueueSchemaError {
  return new QueueSchemaError(`Task payload schema_version ${version} is not supported by this gflow.`);
}

/**
 * The queue port on PostgreSQL. Every move reads its row under `SELECT … FOR UPDATE`, asks the
 * catalog's rules (`taskRules.ts`) what it becomes, and writes it in the same transaction: of
 * racing workers on several machines exactly one claims a row, and a write by a worker that no
 * longer holds its row (another took it over after its heartbeat lapsed) is refused — which is
 * what keeps a step from being submitted by two machines.
 */
export function pgTaskQueue(options: PgTaskQueueOptions): PgTaskQueue {
  const { db, dispatch } = options;
  const write = <T>(fn: (tx: FleetTx) => Promise<T>): Promise<T> => guarded(() => db.transaction(fn));
  const read = <T>(fn: () => Promise<T>): Promise<T> => guarded(fn);

  const queue: PgTaskQueue = {
    backend: 'postgres',
    lockedRow,
    create: async (input) => {
      const checked = checkedTaskInput(input);
      return write(async (tx) => {
        const key = input.idempotencyKey;
        if (key !== undefined) {
          const [earlier] = await tx
            .select({ taskId: tasks.taskId })
            .from(tasks)
            .where(and(eq(tasks.profileName, input.profile), eq(tasks.idempotencyKey, key)));
          if (earlier !== undefined)
            throw new DataIntegrityError(`A task with idempotency key ${key} exists already.`, {
              extensions: { idempotency_key: key },
            });
        }
        let routeAttempt = 0;
        if (input.parent !== undefined) {
          const parent = await rowOrNull(tx, input.parent.taskId);
          if (parent === undefined) throw new DataIntegrityError(`No run ${input.parent.taskId} to add a step to.`);
          routeAttempt = parent.routeAttempt;
        }
        const [row] = await tx
          .insert(tasks)
          .values({
            taskId: checked.taskId,
            profileName: input.profile,
            taskType: input.taskType,
            payload: checked.payload,
            schemaVersion: checked.version,
            parentTaskId: input.parent?.taskId ?? null,
            stepIndex: input.parent?.stepIndex ?? null,
            idempotencyKey: key ?? null,
            pool: input.pool ?? null,
            routeAttempt,
          })
          .returning();
        // A run's steps are run by their run; only a top-level row goes to a worker.
        if (input.parent === undefined) await dispatch.send(tx, input.profile, checked.taskId);
        return toTaskRecord(row as TaskRow);
      });
    },
    get: (taskId) =>
      read(async () => {
        const [row] = await db.select().from(tasks).where(eq(tasks.taskId, taskId));
        return row === undefined ? undefined : toTaskRecord(row);
      }),
    list: (listOptions = {}) =>
      read(async () => {
        const { limit, offset } = normalisePage(listOptions, 50, 1000);
        const where: SQL[] = [];
        if (listOptions.profile !== undefined)
          where.push(eq(tasks.profileName, assertProfileName(listOptions.profile)));
        if (listOptions.status !== undefined) where.push(eq(tasks.status, listOptions.status));
        if (listOptions.topLevel === true) where.push(isNull(tasks.parentTaskId));
        if (listOptions.taskType !== undefined) where.push(eq(tasks.taskType, listOptions.taskType));
        const rows = await db
          .select()
          .from(tasks)
          .where(and(...where))
          .orderBy(desc(tasks.createdAt), desc(tasks.seq))
          .limit(limit + 1)
          .offset(offset);
        return toPage(rows.map(toTaskRecord), limit, offset);
      }),
    claim: async (taskId, claimant) => {
      const claimed = await write(async (tx) => {
        const row = await rowOrNull(tx, taskId);
        return row === undefined || row.status !== 'pending' ? null : claimRow(tx, row, claimant);
      });
      if (claimed === 'refused') throw refusedClaim((await queue.get(taskId))?.schemaVersion ?? 0);
      return claimed;
    },
    claimNext: async (profile, claimant) => {
      assertProfileName(profile);
      let refusedId: string | undefined;
      const claimed = await write(async (tx) => {
        const [row] = await tx
          .select()
          .from(tasks)
          .where(and(eq(tasks.profileName, profile), eq(tasks.status, 'pending'), isNull(tasks.parentTaskId)))
          .orderBy(asc(tasks.createdAt), asc(tasks.seq))
          .limit(1)
          .for('update', { skipLocked: true });
        if (row === undefined) return null;
        refusedId = row.taskId;
        return claimRow(tx, row, claimant);
      });
      if (claimed === 'refused') throw refusedClaim((await queue.get(refusedId ?? ''))?.schemaVersion ?? 0);
      return claimed;
    },
    steps: (parentTaskId) =>
      read(async () => {
        const attempt = sql`(SELECT route_attempt FROM gflow.tasks WHERE task_id = ${parentTaskId})`;
        const rows = await db
          .select()
          .from(tasks)
          .where(and(eq(tasks.parentTaskId, parentTaskId), eq(tasks.routeAttempt, attempt)))
          .orderBy(asc(tasks.stepIndex), asc(tasks.createdAt), asc(tasks.seq));
        return rows.map(toTaskRecord);
      }),
    findByIdempotencyKey: (profile, key) =>
      read(async () => {
        const [row] = await db
          .select()
          .from(tasks)
          .where(and(eq(tasks.profileName, assertProfileName(profile)), eq(tasks.idempotencyKey, key)));
        return row === undefined ? undefined : toTaskRecord(row);
      }),
    settleAbandoned: (liveness, settleOptions = {}) =>
      write(async (tx) => {
        const rows = await lockAbandoned(tx, predicateOf(liveness));
        const out = {
          indeterminate: [] as string[],
          failed: [] as string[],
          cancelled: [] as string[],
          requeued: [] as string[],
        };
        for (const row of rows) {
          const verdict = await settleAbandonedRow(tx, dispatch, row, settleOptions);
          out[verdict].push(row.taskId);
        }
        return out;
      }),
    noteHandover: (taskId, claimant) =>
      write(async (tx) => {
        const changed = await tx
          .update(tasks)
          .set({ claimant, updatedAt: NOW })
          .where(and(eq(tasks.taskId, taskId), eq(tasks.status, 'pending')))
          .returning({ taskId: tasks.taskId });
        return changed.length === 1;
      }),
    claimantAlive: (claimant) => options.claimantAlive(claimant),
    updateCheckpoint: (taskId, claimant, patch) =>
      write(async (tx) => {
        const record = assertHeld(toTaskRecord(await lockedRow(tx, taskId)), claimant);
        const next = mergeCheckpoint(record.checkpoint, claimant, patch);
        const [row] = await tx
          .update(tasks)
          .set({ checkpoint: { ...next }, updatedAt: NOW })
          .where(eq(tasks.taskId, taskId))
          .returning();
        return toTaskRecord(row as TaskRow);
      }),
    complete: (taskId, claimant, result, completeOptions = {}) =>
      write(async (tx) => {
        assertHeld(toTaskRecord(await lockedRow(tx, taskId)), claimant);
        return settle(tx, taskId, 'completed', { result, flowMediaId: completeOptions.flowMediaId });
      }),
    fail: (taskId, claimant, error, failOptions = {}) =>
      write(async (tx) => {
        const row = await lockedRow(tx, taskId);
        const record = assertHeld(toTaskRecord(row), claimant);
        const problem = taskProblemOf(error);
        const status = failedStatusOf(record, problem) as Ending;
        const moved =
          status === 'failed' && row.parentTaskId === null ? await options.onFailed?.(tx, row, problem) : undefined;
        return moved ?? settle(tx, taskId, status, { error: problem, flowMediaId: failOptions.flowMediaId });
      }),
    release: (taskId, claimant, releaseOptions = {}) =>
      write(async (tx) => {
        const record = toTaskRecord(await lockedRow(tx, taskId));
        const next = releasedCheckpoint(record, claimant, releaseOptions);
        if (next === undefined) return undefined;
        const [row] = await tx
          .update(tasks)
          .set({ status: 'pending', claimant: null, claimedAt: null, checkpoint: { ...next }, updatedAt: NOW })
          .where(eq(tasks.taskId, taskId))
          .returning();
        // The holder's job ends with its stop: the row goes back out with a job of its own.
        if (record.parentTaskId === null) await dispatch.send(tx, record.profile, taskId);
        return toTaskRecord(row as TaskRow);
      }),
    cancel: (taskId, cancelOptions = {}) =>
      write(async (tx) => {
        const record = toTaskRecord(await lockedRow(tx, taskId));
        const outcome = cancelOutcomeOf(record, cancelOptions.claimant);
        if (outcome === 'none') return record;
        if (outcome === 'cancel' || outcome === 'indeterminate')
          return settle(tx, taskId, outcome === 'cancel' ? 'cancelled' : 'indeterminate', {});
        const [row] = await tx
          .update(tasks)
          .set({ cancelRequestedAt: sql`coalesce(${tasks.cancelRequestedAt}, clock_timestamp())`, updatedAt: NOW })
          .where(eq(tasks.taskId, taskId))
          .returning();
        return toTaskRecord(row as TaskRow);
      }),
    requeue: (taskId) =>
      write(async (tx) => {
        const record = toTaskRecord(await lockedRow(tx, taskId));
        assertRequeueable(record);
        const [row] = await tx
          .update(tasks)
          .set({
            ...BACK_TO_PENDING,
            checkpoint: { ...requeuedCheckpoint(record) },
            updatedAt: NOW,
          })
          .where(eq(tasks.taskId, taskId))
          .returning();
        await dispatch.send(tx, record.profile, taskId);
        return toTaskRecord(row as TaskRow);
      }),
    recover: (taskId, claimant, result) =>
      write(async (tx) => {
        const parent = assertRecoverable(toTaskRecord(await lockedRow(tx, taskId)));
        assertHeld(toTaskRecord(await lockedRow(tx, parent)), claimant);
        return settle(tx, taskId, 'completed', { result });
      }),
  };
  return queue;
}
