// The CLI's --no-wait hands its task to a detached worker and returns only once a live process
// answers for it (issue 38): the worker claimed it, or a live worker drains the profile's queue
// and takes it next. A worker that dies first is started once more; a task still nobody's after
// that is said plainly, left pending and named — never a "pending" answer that nothing will run.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskQueue } from '@gflow/catalog';
import { DaemonRecoveryError } from '@gflow/errors';
import type { LaunchedWorker } from '../runtime/runtimeServices.js';
import {
  type QueueWorker,
  type TaskProcess,
  claimantProcess,
  describeProcess,
  liveQueueWorker,
  queueIsOwned,
} from './queueOwner.js';

/** How long --no-wait waits for its worker to take the task: a worker's start (Node, the catalog) takes about a second. */
export const HANDOVER_BOUND_MS = 30_000;

/** Who took the task: `claimed` (it runs), `queued` (a live worker drains the queue and runs it next), or it already `settled`. */
export type Handover =
  | { readonly state: 'claimed'; readonly by: TaskProcess | undefined }
  | { readonly state: 'queued'; readonly worker: QueueWorker | undefined }
  | { readonly state: 'settled'; readonly status: string };

export interface HandoverOptions {
  readonly queue: () => TaskQueue;
  readonly locksDir: string;
  readonly taskId: string;
  readonly profile: string;
  /** The worker the command started (undefined: the launcher could not say). */
  readonly first: LaunchedWorker | undefined;
  /** Starts another worker for the profile (used once, when the first stops before taking the task). */
  readonly relaunch: () => LaunchedWorker | undefined;
  /** Where the workers' output goes, for the message. */
  readonly logFile: string;
  readonly boundMs?: number;
  /** How often the row is read; default 100 ms. */
  readonly pollMs?: number;
  /** Aborting stops the wait (the task stays queued as it is). */
  readonly signal?: AbortSignal;
  readonly onEvent?: (message: string) => void;
}

/** The row's state, or who answers for it; undefined while nobody does yet. */
async function answered(options: HandoverOptions): Promise<Handover | undefined> {
  const record = await options.queue().get(options.taskId);
  if (!record) return { state: 'settled', status: 'missing' };
  if (record.status === 'working') return { state: 'claimed', by: claimantProcess(record.claimant) };
  if (record.status !== 'pending') return { state: 'settled', status: record.status };
  const worker = await liveQueueWorker(options.locksDir, options.profile);
  return worker ? { state: 'queued', worker } : undefined;
}

function notHandedOver(options: HandoverOptions, why: string): DaemonRecoveryError {
  const id = options.taskId;
  return new DaemonRecoveryError(
    `Task ${id} is queued, but no worker took it: ${why}. Nothing was sent to Flow. The task is left pending: the next gflow command on profile "${options.profile}" (gflow task wait ${id}, for one) starts a worker for it and says so.`,
    {
      remediationHint: `Read ${options.logFile} for why the worker stopped; then 'gflow task wait ${id}' to run it, or 'gflow task cancel ${id}' if you no longer want it.`,
      extensions: { task_id: id, task_status: 'pending', profile: options.profile },
    },
  );
}

/**
 * Waits until a live process answers for the task (see {@link Handover}), reading the row and the
 * worker lock's record (state, not time), and watching the worker process: one that exits before
 * anyone took the task is replaced once. Throws a DaemonRecoveryError naming the task when nobody
 * took it — the replacement stopped too, or `boundMs` passed.
 */
export async function awaitHandover(options: HandoverOptions): Promise<Handover> {
  const bound = options.boundMs ?? HANDOVER_BOUND_MS;
  const deadline = Date.now() + bound;
  let worker = options.first;
  let replaced = false;
  for (;;) {
    const state = await answered(options);
    if (state) return state;
    if (options.signal?.aborted) return { state: 'queued', worker: undefined };
    if (worker === undefined || worker.hasExited()) {
      if (!replaced) {
        replaced = true;
        options.onEvent?.(
          `The background worker${worker?.pid ? ` (pid ${worker.pid})` : ''} stopped before taking task ${options.taskId}; starting another.`,
        );
        worker = options.relaunch();
        continue;
      }
      // A worker that holds the queue without a record (an older gflow) still takes it.
      if (await queueIsOwned(options.locksDir, options.profile)) return { state: 'queued', worker: undefined };
      throw notHandedOver(options, 'its background worker stopped twice before taking it');
    }
    if (Date.now() >= deadline) {
      const who = worker.pid === undefined ? 'its background worker' : `its background worker (pid ${worker.pid})`;
      throw notHandedOver(options, `${who} did not take it within ${Math.round(bound / 1000)} s`);
    }
    await Promise.race([
      sleep(options.pollMs ?? 100, undefined, { signal: options.signal }).catch(() => undefined),
      worker.exited,
    ]);
  }
}

/** The line --no-wait says once its task is taken. */
export function handoverNotice(taskId: string, handover: Handover): string | undefined {
  if (handover.state === 'claimed')
    return `Task ${taskId} is running${handover.by ? ` in ${describeProcess(handover.by)}` : ''}.`;
  if (handover.state === 'queued') {
    const worker = handover.worker;
    if (!worker) return `Task ${taskId} is queued; the profile's worker runs it next.`;
    const behind = worker.runningTaskId ? ` after task ${worker.runningTaskId}` : '';
    return `Task ${taskId} is queued: ${describeProcess(worker)} runs it${behind}.`;
  }
  return undefined;
}
