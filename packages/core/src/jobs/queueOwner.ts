// Who answers for a queued task (issue 38): a task always has a live owner — the process running
// it, the worker draining its profile's queue, or the process still handing it to a worker — or
// it is stranded, and the next gflow process picks it up (strandedTasks.ts). Liveness is read
// from what the owners leave behind (the row's claimant, the worker lock's record) and, where it
// decides something, from the worker lock itself, which the kernel frees when its holder dies.
import path from 'node:path';
import type { TaskRecord } from '@gflow/catalog';
import { parseClaimant, processIsAlive } from '@gflow/catalog/claimant';

/** The name of a profile's worker lock in the home's locks/ (one worker drains a profile's queue). */
export function workerLockName(profile: string): string {
  return `worker-${profile}`;
}

/** Where a profile's background workers write their output (`<logs>/worker-<profile>.log`). */
export function workerLogFile(logsDir: string, profile: string): string {
  return path.join(logsDir, `worker-${profile}.log`);
}

/**
 * A task its caller asked to run in the background (wait=false / --no-wait) and does not wait
 * on: the only kind a worker may run for it later (picked up, or queued again after its process
 * died before the submit). A waited task's caller is gone with its process; it is never re-run.
 */
export function isBackgroundTask(payload: Readonly<Record<string, unknown>>): boolean {
  const input = payload['input'];
  return typeof input === 'object' && input !== null && (input as { wait?: unknown }).wait === false;
}

/** A stranded task that was picked up (jobs/strandedTasks). */
export interface PickedUpTask {
  readonly taskId: string;
  readonly profile: string;
  /** When it was queued (ISO 8601). */
  readonly queuedAt: string;
  /** It had started once and its process died before the submit (nothing was spent). */
  readonly requeued: boolean;
}

/** A process that answers for a task: what kind (`worker`, `cli`, `mcp` …) and its pid. */
export interface TaskProcess {
  readonly surface: string;
  readonly pid: number;
}

/** The live process draining a profile's queue, as its lock's record says. */
export interface QueueWorker extends TaskProcess {
  /** Since when it holds the queue (ISO 8601). */
  readonly since: string;
  /** The task it runs now, when busy. */
  readonly runningTaskId?: string;
}

/**
 * Who answers for a task now:
 * - `running`: a live process has claimed it;
 * - `queued`: it is pending and a live worker drains its profile's queue (it runs after `worker.runningTaskId`);
 * - `handing-over`: it is pending and the live process that queued it is starting its worker;
 * - `none`: nobody — its claimant died (`was`), or it is pending with no live worker;
 * - `settled`: it has ended.
 */
export type TaskOwner =
  | { readonly state: 'running'; readonly by: TaskProcess }
  | { readonly state: 'queued'; readonly worker: QueueWorker }
  | { readonly state: 'handing-over'; readonly by: TaskProcess }
  | { readonly state: 'none'; readonly was?: TaskProcess }
  | { readonly state: 'settled' };

const RUNNING_TASK = /^task ([\w-]{1,128})$/;

/** What a worker records while it runs a task (its lock's `doing`): read back by {@link liveQueueWorker}. */
export function runningTaskActivity(taskId: string): string {
  return `task ${taskId}`;
}

/**
 * The live worker draining `profile`'s queue, from its lock's record; undefined when there is no
 * record, its process has stopped, or the lock is free (a killed worker's record whose pid another
 * process now has: the kernel lock decides). The lock is tried only when the record names a live
 * process, that is when it is held: a look then never gets in a worker's way.
 */
export async function liveQueueWorker(locksDir: string, profile: string): Promise<QueueWorker | undefined> {
  const { readNamedLockHolder, tryNamedLock } = await import('@gflow/lease');
  const holder = readNamedLockHolder(locksDir, workerLockName(profile));
  if (holder === undefined || !processIsAlive(holder.pid)) return undefined;
  const free = tryNamedLock(locksDir, workerLockName(profile));
  if (free) {
    free.release();
    return undefined;
  }
  const running = holder.activity === 'busy' ? RUNNING_TASK.exec(holder.doing ?? '')?.[1] : undefined;
  return {
    surface: holder.surface ?? 'worker',
    pid: holder.pid,
    since: holder.acquiredAt,
    ...(running ? { runningTaskId: running } : {}),
  };
}

/**
 * Whether some live process holds `profile`'s worker lock. The record answers first; without a
 * live one the lock itself is tried once and let go at once — a worker starting at that very
 * moment retries for a moment (drainTaskQueue's lock grace), so the look does not turn it away.
 */
export async function queueIsOwned(locksDir: string, profile: string): Promise<boolean> {
  if (await liveQueueWorker(locksDir, profile)) return true;
  const { tryNamedLock } = await import('@gflow/lease');
  const lock = tryNamedLock(locksDir, workerLockName(profile));
  if (!lock) return true;
  lock.release();
  return false;
}

/** The process a claimant string names, if it is one. */
export function claimantProcess(claimant: string | null): TaskProcess | undefined {
  const parts = claimant === null ? undefined : parseClaimant(claimant);
  return parts ? { surface: parts.surface, pid: parts.pid } : undefined;
}

/** Who answers for `record` now (see {@link TaskOwner}); `isAlive` decides for claimants (the runtime knows its own). */
export async function ownerOf(
  record: TaskRecord,
  locksDir: string,
  isAlive: (claimant: string) => boolean,
): Promise<TaskOwner> {
  if (record.status !== 'pending' && record.status !== 'working') return { state: 'settled' };
  const claimed = claimantProcess(record.claimant);
  const alive = record.claimant !== null && isAlive(record.claimant);
  if (record.status === 'working')
    return alive && claimed
      ? { state: 'running', by: claimed }
      : { state: 'none', ...(claimed ? { was: claimed } : {}) };
  const worker = await liveQueueWorker(locksDir, record.profile);
  if (worker) return { state: 'queued', worker };
  if (alive && claimed) return { state: 'handing-over', by: claimed };
  return { state: 'none' };
}

/** "gflow worker, pid 123": a process as messages name it. */
export function describeProcess(process: TaskProcess): string {
  return `gflow ${process.surface}, pid ${process.pid}`;
}
