// A piece of work run as a task of the queue in this process's background: the row is written
// before the caller hears of it, claimed by this process, and settled from what the work returns.
// Whatever runs this way is a task on every surface (the task tools, tasks/get, tasks/cancel,
// tasks/update), exactly as a queued generation is.
import {
  CancelledError,
  DataIntegrityError,
  type ProblemDetails,
  fromProblem,
  hasErrorCode,
  toGflowError,
} from '@gflow/errors';
import { isFailureStatus } from '../schemas/resultStatus.js';
import type { RuntimeServices } from './runtimeServices.js';
import { type InputRequest, TaskInput } from './taskInput.js';

/** What the task row records: whose it is, what kind of work, and the request it was made from. */
export interface BackgroundTaskSpec {
  readonly profile: string;
  /** A short slug for the kind of work (the row's task_type). */
  readonly taskType: string;
  /** What the row keeps of the request (the operation's input, the command that queued it). */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** What the work gets: its task id, its signal (a cancel aborts it), and two ways to speak. */
export interface BackgroundJob {
  readonly taskId: string;
  readonly signal: AbortSignal;
  /** Records the phase the work has reached in the row (what the task tools show). */
  phase(name: string): void;
  /** Asks the client questions and waits for every answer (MCP: `input_required` until `tasks/update` answers). */
  ask(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>>;
}

/** The work: returns the task's envelope (`{status, …}`); a failure status, or a throw, fails the task. */
export type BackgroundWork = (job: BackgroundJob) => Promise<Record<string, unknown>>;

/** What the caller gets at once, the row already written: the handle wait=false returns. */
export type PendingTask = {
  readonly status: 'pending';
  readonly task_id: string;
  readonly task_type: string;
};

/** How often the row is read for a cancel another process asked for (`gflow task cancel`). */
const CANCEL_POLL_MS = 500;

/**
 * Writes the task row, claims it for this process and runs `work` in the background (the job is
 * registered with the runtime, so tasks/cancel and tasks/update reach it); returns the pending
 * handle once the row exists. The row settles from the outcome: `completed` with the envelope the
 * work returned; `failed` with its error when that envelope's status is a failure, or with the
 * thrown error (an unexpected one masked); `cancelled` when the work was stopped.
 */
export async function startBackgroundTask(
  runtime: RuntimeServices,
  spec: BackgroundTaskSpec,
  work: BackgroundWork,
): Promise<PendingTask> {
  const tasks = runtime.queue;
  // Created and claimed back to back by this process: the row is never left pending for a worker
  // draining the profile's queue, which runs generations only.
  const created = await tasks.create({ profile: spec.profile, taskType: spec.taskType, payload: spec.payload });
  const claimant = runtime.claimantFor(spec.profile);
  const claimed = await tasks.claim(created.taskId, claimant);
  if (!claimed)
    throw new DataIntegrityError('Another process claimed this task first.', {
      extensions: { task_id: created.taskId },
    });
  const controller = new AbortController();
  const input = new TaskInput();
  const job: BackgroundJob = {
    taskId: created.taskId,
    signal: controller.signal,
    phase: (name) => {
      tasks.updateCheckpoint(created.taskId, claimant, { phase: name }).catch(() => {
        // The row was settled meanwhile (a cancel); the work's own outcome says what happened.
      });
    },
    ask: (requests) => input.ask(requests, controller.signal),
  };
  const done = runAndSettle(runtime, job, claimant, controller, work);
  runtime.jobs.add({ taskId: created.taskId, controller, done, input });
  return { status: 'pending', task_id: created.taskId, task_type: spec.taskType };
}

async function runAndSettle(
  runtime: RuntimeServices,
  job: BackgroundJob,
  claimant: string,
  controller: AbortController,
  work: BackgroundWork,
): Promise<void> {
  const tasks = runtime.queue;
  const watch = setInterval(() => {
    tasks.get(job.taskId).then(
      (record) => {
        if (record?.cancelRequestedAt)
          controller.abort(new DOMException('Cancelled by a task cancel request.', 'AbortError'));
      },
      // A queue that cannot be read now is read again at the next tick.
      () => undefined,
    );
  }, CANCEL_POLL_MS);
  watch.unref();
  try {
    const envelope = await work(job);
    if (controller.signal.aborted) throw new CancelledError('Cancelled before the work finished.');
    if (isFailureStatus(envelope['status'])) await tasks.fail(job.taskId, claimant, errorOf(envelope));
    else await tasks.complete(job.taskId, claimant, { ...envelope, task_id: job.taskId });
  } catch (thrown) {
    await settleThrown(runtime, job.taskId, claimant, thrown, controller.signal.aborted);
  } finally {
    clearInterval(watch);
  }
}

/** A thrown work (or a refused settlement) fails the row: `cancelled` when it was stopped; never rejects. */
async function settleThrown(
  runtime: RuntimeServices,
  taskId: string,
  claimant: string,
  thrown: unknown,
  aborted: boolean,
): Promise<void> {
  const error =
    aborted && !hasErrorCode(thrown, 'cancelled')
      ? new CancelledError('Cancelled before the work finished.', { cause: thrown })
      : toGflowError(thrown);
  if (!hasErrorCode(error, 'cancelled'))
    runtime.logger.error('background task failed', { task_id: taskId, error: String(thrown) });
  try {
    await runtime.queue.fail(taskId, claimant, error);
  } catch (settling) {
    // The row is no longer this process's to settle (settled meanwhile): it says what happened.
    runtime.logger.debug('background task already settled', { task_id: taskId, error: String(settling) });
  }
}

/** The error a failed envelope carries (problem details), as an error the row can record. */
function errorOf(envelope: Record<string, unknown>): unknown {
  const problem = envelope['error'];
  if (typeof problem === 'object' && problem !== null && typeof (problem as ProblemDetails).type === 'string')
    return fromProblem(problem as ProblemDetails);
  return new DataIntegrityError(`The task ended ${String(envelope['status'])} without saying why.`);
}
