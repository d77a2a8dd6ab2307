// Tasks nobody answers for (issue 38): a background task whose worker stopped before taking it, or
// whose process died before its submit (queued again by settleDeadClaims), is picked up by the next
// gflow process that looks — a CLI starts a worker for it, a server runs it itself — and it says
// so, so a queued task never runs silently inside a later, unrelated command.
import type { TaskQueue, TaskRecord } from '@gflow/catalog';
import type { Logger } from '../runtime/logger.js';
import type { LaunchedWorker } from '../runtime/runtimeServices.js';
import { type PickedUpTask, isBackgroundTask, queueIsOwned } from './queueOwner.js';

export type { PickedUpTask } from './queueOwner.js';

/** Decides for a claimant whether its process still runs (the runtime knows its own start token). */
export type ClaimantCheck = (claimant: string) => boolean;

/** What each verdict of settleAbandoned means, as the log line says it. */
const SETTLED_AS = {
  indeterminate: 'indeterminate (its submit may have been sent; it is never run again)',
  failed: 'failed (it had not reached its submit, and is not run again)',
  cancelled: 'cancelled (a stop was asked for)',
  requeued: 'pending again (it had not reached its submit)',
} as const;

/**
 * Settles the `working` rows of dead processes: `indeterminate` once a submit may have been
 * clicked, never run again; before it, a background task is `pending` again (bounded), a task
 * whose stop was asked for `cancelled`, a waited one `failed` (its caller is gone). Each settled
 * task is logged when a logger is given (one queued again at debug: its pick-up says it). Returns
 * the tasks queued again.
 */
export async function settleDeadClaims(
  queue: TaskQueue,
  isAlive: ClaimantCheck,
  logger?: Logger,
): Promise<readonly string[]> {
  const settled = await queue.settleAbandoned({ isAlive }, { requeue: isBackgroundTask });
  for (const verdict of Object.keys(SETTLED_AS) as (keyof typeof SETTLED_AS)[])
    for (const taskId of settled[verdict]) {
      const line = `The process running task ${taskId} had stopped; the task is now ${SETTLED_AS[verdict]}.`;
      // A task queued again is said once more, plainly, by whoever picks it up (pickedUpNotice).
      if (verdict === 'requeued') logger?.debug(line, { task_id: taskId });
      else logger?.info(line, { task_id: taskId });
    }
  return settled.requeued;
}

function strandedOf(record: TaskRecord, isAlive: ClaimantCheck): boolean {
  // A pending row's claimant is the process handing it to a worker (tasks.noteHandover).
  return isBackgroundTask(record.payload) && !(record.claimant !== null && isAlive(record.claimant));
}

/**
 * The pending background tasks nobody answers for, oldest first: no live process hands them
 * over, and no live worker drains their profile's queue (the worker lock decides).
 */
export async function findStrandedTasks(
  queue: TaskQueue,
  locksDir: string,
  isAlive: ClaimantCheck,
  profile?: string,
  starting: (profile: string) => boolean = () => false,
): Promise<PickedUpTask[]> {
  const pending = await queue.list({ status: 'pending', limit: 1000, ...(profile === undefined ? {} : { profile }) });
  const candidates = pending.items.filter((record) => strandedOf(record, isAlive)).reverse();
  const found: PickedUpTask[] = [];
  const owned = new Map<string, boolean>();
  for (const record of candidates) {
    // A worker this process started for the profile, still starting, answers for it too.
    if (!owned.has(record.profile))
      owned.set(record.profile, starting(record.profile) || (await queueIsOwned(locksDir, record.profile)));
    if (owned.get(record.profile) === true) continue;
    found.push({
      taskId: record.taskId,
      profile: record.profile,
      queuedAt: record.createdAt,
      requeued: (record.checkpoint?.requeues ?? 0) > 0,
    });
  }
  return found;
}

/** What a process does with a profile's stranded tasks: start a worker (CLI) or drain it itself (server). */
export interface StrandedTaskRunner {
  /** Starts whatever drains `profile`'s queue; `firstTaskId` is its oldest stranded task. Returns the worker it started, when it can watch it. */
  start(profile: string, firstTaskId: string): LaunchedWorker | void;
  /** How the notice names who runs a profile's tasks now ("a new background worker …", "this server …"). */
  who(profile: string): string;
}

/** The line that says a task was picked up (never silently). */
export function pickedUpNotice(task: PickedUpTask, who: string): string {
  const why = task.requeued
    ? 'the process running it had stopped before its submit (nothing was spent)'
    : 'its worker had stopped before taking it';
  return `Picked up task ${task.taskId} (profile "${task.profile}") queued at ${task.queuedAt}: ${why}; ${who} runs it now.`;
}

/** Settles dead claims, then hands every stranded task's profile to `runner` and says so, once per task. */
export async function pickUpStrandedTasks(options: {
  readonly queue: TaskQueue;
  readonly locksDir: string;
  readonly isAlive: ClaimantCheck;
  readonly logger: Logger;
  readonly runner: StrandedTaskRunner;
  readonly profile?: string | undefined;
  /** Whether a worker this process started for the profile is still starting (not picked up twice). */
  readonly starting?: (profile: string) => boolean;
}): Promise<PickedUpTask[]> {
  const { queue, isAlive, runner } = options;
  await settleDeadClaims(queue, isAlive, options.logger);
  const stranded = await findStrandedTasks(queue, options.locksDir, isAlive, options.profile, options.starting);
  const started = new Set<string>();
  for (const task of stranded) {
    if (!started.has(task.profile)) {
      started.add(task.profile);
      runner.start(task.profile, task.taskId);
    }
    options.logger.warn(pickedUpNotice(task, runner.who(task.profile)), {
      task_id: task.taskId,
      profile: task.profile,
    });
  }
  return stranded;
}
