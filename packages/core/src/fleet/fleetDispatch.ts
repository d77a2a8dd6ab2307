import type { TaskRecord } from '@gflow/catalog';
import { awaitTask, isSettled } from '../tasks/awaitTask.js';
import { progressOf } from '../tasks/taskProgress.js';
import type { OperationContext } from '../runtime/operationContext.js';

/** How long a caller that gave up waits for the worker to settle the cancel it asked for. */
const CANCEL_SETTLE_MS = 30_000;

/** A row a fleet runs: its id, the pending answer, and its envelope once settled. */
export interface FleetTask<R> {
  readonly taskId: string;
  readonly wait: boolean;
  readonly pending: R;
  /** The settled row's envelope (what wait=true returns). */
  readonly settled: (record: TaskRecord) => R | Promise<R>;
}

/**
 * A row on a fleet runs on whichever worker holds its profile (its job was sent with the row), never
 * in the process that wrote it: wait=false answers at once; wait=true follows the row to its end,
 * its phases as progress. A caller that stops waiting (Ctrl-C, a client's cancel) asks for the
 * cancel as `task cancel` does — the worker stops before its next submit, or settles
 * `indeterminate` after one — and answers what the row settled as.
 */
export async function awaitOnFleet<R>(context: OperationContext, task: FleetTask<R>): Promise<R> {
  if (!task.wait) return task.pending;
  const { runtime } = context;
  context.onProgress?.({ phase: 'queued', message: `task ${task.taskId}` });
  const started = Date.now();
  try {
    const record = await awaitTask(runtime, task.taskId, {
      signal: context.signal,
      onChange: (row) => context.onProgress?.(progressOf(row, Date.now() - started)),
    });
    return await task.settled(record);
  } catch (error) {
    if (!context.signal.aborted) throw error;
    let record = await runtime.queue.cancel(task.taskId);
    const deadline = Date.now() + CANCEL_SETTLE_MS;
    while (!isSettled(record) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      record = (await runtime.queue.get(task.taskId)) ?? record;
    }
    return isSettled(record) ? task.settled(record) : task.pending;
  }
}
