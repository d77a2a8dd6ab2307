import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskRecord } from '@gflow/catalog';
import { hasErrorCode, toGflowError } from '@gflow/errors';
import { resolveProfile } from '../home/profiles.js';
import { runningTaskActivity } from './queueOwner.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';

/** A held "one worker per profile" lock (@gflow/lease's tryNamedLock). */
export interface WorkerLock {
  /** Says in the lock's record what the worker does (the task it runs), for other processes. */
  setActivity?(activity: { readonly state: 'busy'; readonly doing: string } | { readonly state: 'idle' }): void;
  release(): void;
}

/**
 * How long a worker that finds the lock held tries again before it leaves: another process may be
 * looking at the lock for an instant (queueIsOwned), which must not turn a starting worker away.
 */
const LOCK_GRACE_MS = 500;

export interface DrainQueueOptions {
  readonly profile: string;
  /** Aborting stops the worker: the running job is cancelled (settled by its checkpoint), nothing more is claimed. */
  readonly signal: AbortSignal;
  /** How long an empty queue is watched for new tasks before the worker leaves. */
  readonly idleMs: number;
  /** How often the idle worker looks for new tasks (and four times that between lease waits); default 250 ms. */
  readonly pollMs?: number;
  /** One attempt at the profile's worker lock; undefined when another worker holds it. */
  readonly tryLock: () => WorkerLock | undefined;
  /** How long a held lock is tried again before the worker leaves; default 500 ms. */
  readonly lockGraceMs?: number;
  /** Runs one claimed task to its end (runClaimedGenerationTask in the runtime's operation context). */
  readonly runTask: (record: TaskRecord, signal: AbortSignal) => Promise<unknown>;
  /** What the worker does, for its log. */
  readonly onEvent?: (event: string, fields: Readonly<Record<string, unknown>>) => void;
}

export interface DrainReport {
  /** The task ids this worker claimed and ran, in order. */
  readonly ran: readonly string[];
  /** drained: the queue stayed empty for the idle grace; another-worker: the lock was taken; stopped: aborted. */
  readonly reason: 'drained' | 'another-worker' | 'stopped';
}

/**
 * The background worker's loop (`gflow worker run`, started by the CLI's --no-wait): it drains
 * one profile's task queue, oldest first, and leaves when the queue has stayed empty for `idleMs`.
 *
 * - One worker per profile: the worker lock (a kernel lock, freed when the process dies), whose
 *   record names the worker and the task it runs (queueOwner reads it). A worker that finds it
 *   held (for longer than a look takes, `lockGraceMs`) exits: the holder takes the new task. Leaving, the holder first
 *   releases the lock and then looks at the queue once more, so a task queued by a process whose
 *   worker found the lock held is never stranded.
 * - The profile first, then the task: the worker takes the profile's lease (opening the browser,
 *   kept warm between tasks) before it claims, so a task is never held by a process still waiting
 *   for a busy profile. A lease still busy after the wait is waited for again while tasks are
 *   pending; another failure to open the profile (signed out, …) is left to the task, which records it.
 * - The claim is `tasks.claimNext` (atomic in SQLite): of two processes that race for a row,
 *   exactly one runs it.
 */
export async function drainTaskQueue(runtime: RuntimeServices, options: DrainQueueOptions): Promise<DrainReport> {
  const { profile: name, signal } = options;
  const pollMs = options.pollMs ?? 250;
  const log = options.onEvent ?? (() => undefined);
  const queue = runtime.queue;
  const claimant = runtime.claimantFor(name);
  const pending = async (): Promise<boolean> =>
    (await queue.list({ profile: name, status: 'pending', limit: 1 })).items.length > 0;
  const ran: string[] = [];

  const lockGraceMs = options.lockGraceMs ?? LOCK_GRACE_MS;
  let lock = await takeLock(options.tryLock, lockGraceMs, pollMs, signal);
  if (!lock) {
    log('another worker holds the queue', { profile: name });
    return { ran, reason: 'another-worker' };
  }
  try {
    for (;;) {
      while (!signal.aborted && (await pending())) {
        if (!(await takeProfile(runtime, name, signal, log))) {
          await pause(pollMs * 4, signal);
          continue;
        }
        let record: TaskRecord | null;
        try {
          record = await queue.claimNext(name, claimant);
        } catch (error) {
          // A payload this gflow cannot read was settled `failed` by the claim; go on with the next.
          log('task refused at claim', { profile: name, error: toGflowError(error).message });
          continue;
        }
        if (!record) continue;
        ran.push(record.taskId);
        lock.setActivity?.({ state: 'busy', doing: runningTaskActivity(record.taskId) });
        log('task claimed', { task_id: record.taskId, task_type: record.taskType, claimant });
        try {
          await options.runTask(record, signal);
        } catch (error) {
          // A job that threw instead of settling its row: settle it here, so nothing stays `working`.
          const stillHeld = await queue.get(record.taskId);
          if (stillHeld?.status === 'working' && stillHeld.claimant === claimant)
            await queue.fail(record.taskId, claimant, error);
          log('task crashed', { task_id: record.taskId, error: toGflowError(error).message });
        }
        lock.setActivity?.({ state: 'idle' });
        log('task settled', { task_id: record.taskId, status: (await queue.get(record.taskId))?.status });
      }
      if (signal.aborted) return { ran, reason: 'stopped' };
      // The idle grace: a task queued soon after the last one runs in the same warm browser.
      const deadline = Date.now() + options.idleMs;
      while (!signal.aborted && Date.now() < deadline && !(await pending())) await pause(pollMs, signal);
      if (signal.aborted) return { ran, reason: 'stopped' };
      if (await pending()) continue;
      // Leave: release first, then look once more. A task queued before another worker found the
      // lock held is in the queue by now; if one is, take the lock back (unless a newer worker has it).
      lock.release();
      lock = undefined;
      if (!(await pending())) break;
      lock = await takeLock(options.tryLock, lockGraceMs, pollMs, signal);
      if (!lock) break;
    }
    log('queue drained', { profile: name, ran: ran.length });
    return { ran, reason: 'drained' };
  } finally {
    lock?.release();
  }
}

/**
 * Opens (or keeps) the profile's browser under its lease before a claim. False when the profile
 * is still held by another process after the lease wait (the caller looks at the queue again);
 * true otherwise, also when opening failed for another reason: the task then records that failure.
 */
async function takeProfile(
  runtime: RuntimeServices,
  name: string,
  signal: AbortSignal,
  log: (event: string, fields: Readonly<Record<string, unknown>>) => void,
): Promise<boolean> {
  try {
    const profile = resolveProfile(runtime.layout, { requested: name });
    await runtime.sessions.withSession(
      profile,
      { signal, activity: 'the background task queue' },
      async () => undefined,
    );
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    if (hasErrorCode(error, 'profile-locked')) {
      log('profile still busy; waiting again', { profile: name });
      return false;
    }
    log('profile could not be opened; the next task records why', {
      profile: name,
      error: toGflowError(error).message,
    });
    return true;
  }
}

/** The lock, tried again for up to `graceMs` while another holds it; undefined when it stays held. */
async function takeLock(
  tryLock: () => WorkerLock | undefined,
  graceMs: number,
  pollMs: number,
  signal: AbortSignal,
): Promise<WorkerLock | undefined> {
  const until = Date.now() + graceMs;
  for (;;) {
    const lock = tryLock();
    if (lock || signal.aborted || Date.now() >= until) return lock;
    await pause(Math.min(pollMs, 50), signal);
  }
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}
