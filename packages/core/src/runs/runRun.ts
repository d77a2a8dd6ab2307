import type { TaskRecord } from '@gflow/catalog';
import { CancelledError, DataIntegrityError, type GflowError, toErrorEnvelopeBody, toGflowError } from '@gflow/errors';
import { RunClock } from '../generation/index.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { kindOf } from './runKinds.js';
import type { RunResult } from './runResults.js';
import { type RunExecution as Execution, RunExecution, type RunKind, type RunOptions } from './runExecution.js';
import { type RunRequest, parseRunRequest, stepCount } from './runRequest.js';

export type { RunResult } from './runResults.js';

/** A run's clock has no deadline of its own: each step is bounded by GFLOW_CLI_TIMEOUT_SECONDS. */
const NO_DEADLINE_S = 365 * 24 * 3600;

/** The problem a run that did not complete ends with: a cancellation (naming what may have been spent), else its first failure. */
function problemOf(
  view: RunResult,
  kind: RunKind<RunRequest, RunResult>,
  stop: { readonly aborted: boolean; readonly recovery?: GflowError | undefined; readonly finished?: GflowError },
): GflowError {
  if (stop.recovery !== undefined) return stop.recovery;
  if (stop.finished !== undefined) return stop.finished;
  if (stop.aborted)
    return new CancelledError(
      'The run was stopped; no step is submitted after a cancel. Steps that reached their submit are named in the result.',
    );
  const first = kind.firstError(view);
  return first === undefined
    ? new DataIntegrityError('The run ended without completing its steps.')
    : toGflowError(first);
}

/** Settles the run's row from its envelope and answers the envelope (with its first failure on top). */
async function settle(
  runtime: RuntimeServices,
  record: TaskRecord,
  claimant: string,
  view: RunResult,
  stop: {
    kind: RunKind<RunRequest, RunResult>;
    aborted: boolean;
    recovery?: GflowError | undefined;
    /** The finish (a story's stitch) failed after every step completed. */
    finished?: GflowError;
    /** This process stopped (RunOptions.releaseOnStop and its signal aborted): the run may go back to the queue. */
    released?: boolean;
  },
): Promise<RunResult> {
  const tasks = runtime.queue;
  if (stop.kind.succeeded(view) && !stop.aborted && stop.finished === undefined) {
    await tasks.complete(record.taskId, claimant, view);
    return view;
  }
  if (stop.released && (await tasks.release(record.taskId, claimant, { run: true })) !== undefined) {
    runtime.logger.info('run queued again: this process stopped; its steps keep their states', {
      task_id: record.taskId,
    });
    return { ...view, status: 'pending' } as RunResult;
  }
  const error = problemOf(view, stop.kind, stop);
  const settled = await tasks.fail(record.taskId, claimant, error);
  const status = settled.status === 'cancelled' || settled.status === 'indeterminate' ? settled.status : view.status;
  const own = stop.recovery !== undefined || stop.finished !== undefined;
  const top = own ? toErrorEnvelopeBody(error) : (view.error ?? toErrorEnvelopeBody(error));
  return { ...view, status, error: top } as RunResult;
}

/** The kind's finish after its steps (a story's stitch): its fields join the envelope, or its failure fails the run. */
async function finish(
  kind: RunKind<RunRequest, RunResult>,
  request: RunRequest,
  view: RunResult,
  execution: Execution<RunRequest, RunResult>,
  record: TaskRecord,
): Promise<{ view: RunResult; finished?: GflowError }> {
  if (kind.finish === undefined) return { view };
  try {
    const extra = await kind.finish(request, execution.steps, execution.context(), record);
    return { view: { ...view, ...extra } as RunResult };
  } catch (error) {
    return { view, finished: toGflowError(error) };
  }
}

/**
 * Runs a run this process has claimed (a wait=true call, a server's background, a worker, a
 * resume): its row parsed like user input, its steps by their states, its row settled from its
 * envelope. A cancel asked for elsewhere stops it before the next submit; the heartbeat keeps its
 * caller hearing from it between steps.
 */
export async function runClaimedRun(
  runtime: RuntimeServices,
  record: TaskRecord,
  options: RunOptions,
): Promise<RunResult> {
  const claimant = record.claimant ?? runtime.claimantFor(record.profile);
  let request: RunRequest;
  try {
    request = parseRunRequest(record.payload, record.taskId);
  } catch (error) {
    await runtime.queue.fail(record.taskId, claimant, error);
    throw error;
  }
  const kind = kindOf(request);
  let last: ProgressEvent = { phase: 'queued', message: `run ${record.taskId}` };
  const say = (event: ProgressEvent): void => {
    clock.spoke();
    options.onProgress?.({ ...event, elapsedMs: clock.elapsedMs() });
  };
  const voice = (event: ProgressEvent): void => {
    last = event;
    say(event);
  };
  const clock = new RunClock({
    signal: options.signal,
    timeoutSeconds: NO_DEADLINE_S,
    cancelRequested: async () => (await runtime.queue.get(record.taskId))?.cancelRequestedAt != null,
    cancelPollMs: options.cancelPollMs,
    onSilence: () => say({ ...last, message: `still ${last.message ?? last.phase}` }),
  });
  const execution: Execution<RunRequest, RunResult> = new RunExecution(runtime, record, request, kind, {
    signal: clock.signal,
    onProgress: voice,
    claimant,
    ...(options.resubmitUnconfirmed ? { resubmitUnconfirmed: true } : {}),
  });
  try {
    const stepped = await execution.execute();
    const recovery = [...execution.recoveryFailures.values()][0];
    const released = options.releaseOnStop === true && options.signal.aborted;
    const finishing = kind.succeeded(stepped) && !clock.signal.aborted && recovery === undefined;
    const { view, finished } = finishing ? await finish(kind, request, stepped, execution, record) : { view: stepped };
    const settled = await settle(runtime, record, claimant, view, {
      kind,
      aborted: clock.signal.aborted,
      recovery,
      released,
      ...(finished === undefined ? {} : { finished }),
    });
    const total = stepCount(request);
    options.onProgress?.({ phase: 'done', step: { index: total, total }, elapsedMs: clock.elapsedMs() });
    return settled;
  } catch (thrown) {
    const view = kind.view(request, execution.steps, 'settled');
    await runtime.queue.fail(record.taskId, claimant, thrown);
    return { ...view, status: 'failed', error: toErrorEnvelopeBody(toGflowError(thrown)) } as RunResult;
  } finally {
    clock.stop();
  }
}
