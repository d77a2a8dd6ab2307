import type { generationQueue } from '../schema/index.js';

/** The state of a queued task: `pending`, `working`, or how it ended (`completed`, `cancelled`, `indeterminate`, `failed`). */
export type TaskStatus = (typeof generationQueue.$inferSelect)['status'];

/** Statuses after which a task never changes again. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled', 'indeterminate', 'failed'];

/**
 * The payload schema version this code writes; claim refuses others (QueueSchemaError). Version 2
 * is core's resolved generation request (the plan and the inputs resolved when it was made).
 */
export const TASK_PAYLOAD_VERSION = 2;
export const SUPPORTED_TASK_PAYLOAD_VERSIONS: readonly number[] = [2];

/** A task payload: the operation's parsed input plus `schema_version`. */
export type TaskPayload = Readonly<Record<string, unknown>> & { readonly schema_version: number };

/**
 * How far a running task got, written by the worker as it goes. `may_have_spent`
 * turns true when the submit click fired (credits may be gone) and never turns back.
 */
export interface TaskCheckpoint {
  readonly schema_version: 1;
  readonly claimant: string | null;
  readonly phase: string;
  readonly may_have_spent: boolean;
  readonly project_id: string | null;
  readonly operation_id: number | null;
  readonly media_ids: readonly string[];
  readonly workflow_ids: readonly string[];
  /** When the submit click was first reported (ISO): a recovery looks for what the project made after it. */
  readonly submitting_at?: string;
  /**
   * How many times the task was queued again because the process running it died before its
   * submit (settleAbandoned); absent until the first time. A claim keeps it.
   */
  readonly requeues?: number;
}

/** Fields a worker may set on its checkpoint; arrays are merged (union, in order). */
export interface CheckpointPatch {
  readonly phase?: string;
  readonly may_have_spent?: boolean;
  readonly project_id?: string | null;
  readonly operation_id?: number | null;
  readonly media_ids?: readonly string[];
  readonly workflow_ids?: readonly string[];
  /** Kept from its first write on. */
  readonly submitting_at?: string;
}

/** A task row with its JSON columns parsed. */
export interface TaskRecord {
  readonly taskId: string;
  readonly profile: string;
  readonly taskType: string;
  readonly payload: TaskPayload;
  readonly schemaVersion: number;
  readonly status: TaskStatus;
  /** The same payload wait=true returns, once completed. */
  readonly result: unknown;
  /** Problem details (+ exit_code) once failed / indeterminate / cancelled by settlement. */
  readonly error: Readonly<Record<string, unknown>> | null;
  readonly flowMediaId: string | null;
  readonly claimant: string | null;
  readonly claimedAt: string | null;
  readonly cancelRequestedAt: string | null;
  readonly checkpoint: TaskCheckpoint | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The run this row is a step of; null for a single generation or a run itself. */
  readonly parentTaskId: string | null;
  /** The step's position in its run (several rows may hold one position: attempts that never reached their submit). */
  readonly stepIndex: number | null;
  /** The caller's idempotency key, when one was given. */
  readonly idempotencyKey: string | null;
}

export interface CreateTaskInput {
  /** Defaults to a random UUID. A task id is a bearer capability: keep it unguessable. */
  readonly taskId?: string;
  readonly profile: string;
  /** e.g. `t2i`, `i2i`, `t2v`, `i2v`, `r2v`. */
  readonly taskType: string;
  /** `schema_version` defaults to TASK_PAYLOAD_VERSION; another value → QueueSchemaError. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** A step of this run (its row must exist), at this position. */
  readonly parent?: { readonly taskId: string; readonly stepIndex: number };
  /** A key a repeated call is recognised by (per profile); a second row with it is refused (DataIntegrityError). */
  readonly idempotencyKey?: string;
  /**
   * The profile pool a fleet routed this task through (it may move to another profile of the pool
   * when Flow refuses this one for quota). The fleet's queue only: the embedded queue has no pools.
   */
  readonly pool?: string;
}

/** Who is running tasks: `<surface>:<profile>:<pid>:<startToken>`. */
export interface ClaimantParts {
  readonly surface: string;
  readonly profile: string;
  readonly pid: number;
  /** A random token per process start, so a reused pid is not mistaken for the old process. */
  readonly startToken: string;
}

/** Settle-at-startup: which claimants are still alive. */
export type ClaimantLiveness =
  { readonly isAlive: (claimant: string) => boolean } | { readonly liveClaimants: Iterable<string> };

/** What settling may do besides `indeterminate` and `failed`. */
export interface SettleOptions {
  /**
   * Whether a task that died before its submit may run again: its caller asked for it to run in
   * the background and is not waiting on this row (the payload's owner decides). Default: none.
   */
  readonly requeue?: (payload: TaskPayload) => boolean;
  /** How many times one task is queued again at most; default 3, then it is settled `failed`. */
  readonly maxRequeues?: number;
  /**
   * A task the caller takes over at once (a fleet worker resuming the run a dead worker held): if
   * it is among the abandoned rows it goes back to `pending` in the same transaction, with no job
   * of its own, when it may run again (a run, or a task that never reached its submit) and no
   * cancel was asked for — so nobody following it sees it end (`indeterminate`) before it resumes.
   */
  readonly resume?: string;
}

export interface SettleResult {
  /** Tasks whose checkpoint said credits may have been spent. */
  readonly indeterminate: readonly string[];
  /** Tasks that died before the submit click and are not run again. */
  readonly failed: readonly string[];
  /** Tasks that died before the submit click after a cancel was asked for. */
  readonly cancelled: readonly string[];
  /** Tasks that died before the submit click and are `pending` again (SettleOptions.requeue). */
  readonly requeued: readonly string[];
}
