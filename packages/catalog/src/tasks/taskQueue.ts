import type { Page } from '../paging.js';
import { claimantPidIsAlive } from './claimant.js';
import type { CancelOptions } from './taskTransitions.js';
import type { ListTasksOptions, TasksRepo } from './tasksRepo.js';
import type {
  CheckpointPatch,
  ClaimantLiveness,
  CreateTaskInput,
  SettleOptions,
  SettleResult,
  TaskRecord,
} from './taskTypes.js';

/**
 * The queue port: every read and write core makes of task rows (single generations, runs and
 * their steps), whichever engine holds them. Two backends implement it with the same rules
 * (`taskRules.ts`): this catalog's embedded SQLite queue ({@link sqliteTaskQueue}, the default,
 * nothing to set up) and the fleet's PostgreSQL queue (`@gflow/fleet`, its dispatch through
 * pg-boss). Every method is asynchronous because the fleet's is; the SQLite backend runs the same
 * synchronous statements as before, at the moment it is called.
 *
 * What it does not do: run anything. Who takes a row (a wait=true call, a server's background, a
 * worker) is the runtime's business; the port only moves rows between states, each move checked
 * against who holds the row, so a step that may have been submitted is never handed to a second
 * runner.
 */
export interface TaskQueue {
  /** `sqlite` (this catalog, one machine) or `postgres` (a fleet of machines). */
  readonly backend: 'sqlite' | 'postgres';
  create(input: CreateTaskInput): Promise<TaskRecord>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Newest first; limit 1..1000 (default 50). */
  list(options?: ListTasksOptions): Promise<Page<TaskRecord>>;
  /** `pending` → `working` for `claimant`; of any number of racers exactly one gets the row, the others null. */
  claim(taskId: string, claimant: string): Promise<TaskRecord | null>;
  /** Claims the oldest pending top-level task of a profile, or null. */
  claimNext(profile: string, claimant: string): Promise<TaskRecord | null>;
  /** A run's steps, by position then age. */
  steps(parentTaskId: string): Promise<TaskRecord[]>;
  findByIdempotencyKey(profile: string, key: string): Promise<TaskRecord | undefined>;
  /**
   * Every `working` row whose claimant is not alive: `indeterminate` after its submit; before it
   * `cancelled` when a cancel was asked for, `pending` again when `options.requeue` says so (a
   * bounded number of times), else `failed` (the rule: `abandonedVerdictOf`).
   */
  settleAbandoned(liveness: ClaimantLiveness, options?: SettleOptions): Promise<SettleResult>;
  /**
   * The process that queued a `pending` task names itself its claimant while it hands the task
   * over (a claim overwrites it); false when the task is no longer pending.
   */
  noteHandover(taskId: string, claimant: string): Promise<boolean>;
  /** Whether the process a claimant string names still runs (this host's pids; the fleet's worker registry). */
  claimantAlive(claimant: string): Promise<boolean>;
  /** Merges a checkpoint patch; only the holder of a `working` row may (else DataIntegrityError). */
  updateCheckpoint(taskId: string, claimant: string, patch: CheckpointPatch): Promise<TaskRecord>;
  complete(
    taskId: string,
    claimant: string,
    result: unknown,
    options?: { readonly flowMediaId?: string | null },
  ): Promise<TaskRecord>;
  fail(
    taskId: string,
    claimant: string,
    error: unknown,
    options?: { readonly flowMediaId?: string | null },
  ): Promise<TaskRecord>;
  /**
   * A holder stopping before its submit gives its `working` row back (`pending`, `requeues`
   * counted); undefined, nothing changed, when it may not (the rule: `releasedCheckpoint`).
   */
  release(
    taskId: string,
    claimant: string,
    options?: { readonly maxRequeues?: number; readonly run?: boolean },
  ): Promise<TaskRecord | undefined>;
  cancel(taskId: string, options?: CancelOptions): Promise<TaskRecord>;
  requeue(taskId: string): Promise<TaskRecord>;
  recover(taskId: string, claimant: string, result: unknown): Promise<TaskRecord>;
}

/**
 * The embedded backend of the queue port: this catalog's `generation_queue`, as the repository
 * writes it (its BEGIN IMMEDIATE transactions, its statements). Each method runs its statement
 * when called (an async function runs synchronously up to its first await), so the order and the
 * moment of every write are what they were before the port.
 */
export function sqliteTaskQueue(tasks: () => TasksRepo): TaskQueue {
  return {
    backend: 'sqlite',
    create: async (input) => tasks().create(input),
    get: async (taskId) => tasks().get(taskId),
    list: async (options) => tasks().list(options),
    claim: async (taskId, claimant) => tasks().claim(taskId, claimant),
    claimNext: async (profile, claimant) => tasks().claimNext(profile, claimant),
    steps: async (parentTaskId) => tasks().steps(parentTaskId),
    findByIdempotencyKey: async (profile, key) => tasks().findByIdempotencyKey(profile, key),
    settleAbandoned: async (liveness, options) => tasks().settleAbandoned(liveness, options),
    noteHandover: async (taskId, claimant) => tasks().noteHandover(taskId, claimant),
    claimantAlive: async (claimant) => claimantPidIsAlive(claimant),
    updateCheckpoint: async (taskId, claimant, patch) => tasks().updateCheckpoint(taskId, claimant, patch),
    complete: async (taskId, claimant, result, options) => tasks().complete(taskId, claimant, result, options),
    fail: async (taskId, claimant, error, options) => tasks().fail(taskId, claimant, error, options),
    release: async (taskId, claimant, options) => tasks().release(taskId, claimant, options),
    cancel: async (taskId, options) => tasks().cancel(taskId, options),
    requeue: async (taskId) => tasks().requeue(taskId),
    recover: async (taskId, claimant, result) => tasks().recover(taskId, claimant, result),
  };
}
