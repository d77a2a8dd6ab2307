import type { TaskRecord } from '@gflow/catalog';
import { awaitOnFleet } from '../fleet/fleetDispatch.js';
import type { OperationContext } from './operationContext.js';
import type { ProgressEvent } from './progressPhases.js';

/** A queued row (a generation or a run) and how this process runs it once claimed. */
export interface QueuedTask<R> {
  readonly taskId: string;
  readonly profile: string;
  readonly wait: boolean;
  /** What a caller that does not wait is answered. */
  readonly pending: R;
  /** The envelope of the row once settled (on a fleet a caller that waits is answered from the row). */
  readonly settled: (record: TaskRecord) => R | Promise<R>;
  /** Claims the row and runs it in this process to its settled envelope (failures returned, not thrown). */
  readonly run: (options: {
    readonly signal: AbortSignal;
    readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  }) => Promise<R>;
}

/**
 * Where a queued row runs, for every kind of task: wait=true in this call; wait=false hands the row
 * to a detached worker (the CLI's runtime.background; a failed launch cancels the row) or to this
 * process's background (servers, the library), where tasks/cancel reaches it.
 */
export async function dispatchTask<R>(context: OperationContext, task: QueuedTask<R>): Promise<R> {
  const { runtime } = context;
  const { taskId, profile } = task;
  // On a fleet the row's job went out with the row: a worker holding the profile runs it.
  if (runtime.fleet !== undefined) return awaitOnFleet(context, task);
  if (!task.wait && runtime.background) {
    try {
      runtime.background.launch({ taskId, profile, logsDir: runtime.layout.logsDir });
    } catch (error) {
      await runtime.queue.cancel(taskId);
      throw error;
    }
    return task.pending;
  }
  if (!task.wait) {
    const controller = new AbortController();
    const done = task.run({ signal: controller.signal }).catch((error: unknown) => {
      runtime.logger.error('background task crashed', { task_id: taskId, error: String(error) });
    });
    runtime.jobs.add({ taskId, controller, done });
    return task.pending;
  }
  // The first word of a waited call names its task: a caller whose call is aborted (a client's
  // timeout, a dropped connection) still knows which task to look up.
  context.onProgress?.({ phase: 'queued', message: `task ${taskId}` });
  return task.run({ signal: context.signal, onProgress: context.onProgress });
}
