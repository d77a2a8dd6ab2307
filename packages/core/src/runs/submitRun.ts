import { randomUUID } from 'node:crypto';
import type { TaskQueue, TaskRecord } from '@gflow/catalog';
import { ReferenceNotFoundError, UsageError } from '@gflow/errors';
import type { OperationContext } from '../runtime/operationContext.js';
import { dispatchTask } from '../runtime/taskDispatch.js';
import { awaitTask, isSettled } from '../tasks/awaitTask.js';
import { kindOf } from './runKinds.js';
import { type RunResult, runClaimedRun } from './runRun.js';
import { RUN_REQUEST_VERSION, type RunRequest, isRunPayload, parseRunRequest, runRequest } from './runRequest.js';
import { currentSteps } from './steps.js';

type NewRun = RunRequest extends infer R
  ? R extends RunRequest
    ? Omit<R, 'task_id' | 'schema_version' | 'kind'>
    : never
  : never;

/** A run's envelope from its rows, as far as it got (a run another process holds, or one that ended). */
function viewOf(request: RunRequest, steps: readonly TaskRecord[], settled: boolean): RunResult {
  const rows = currentSteps(steps);
  const firstProject = [...rows.values()].map((r) => r.checkpoint?.project_id).find((p) => typeof p === 'string');
  const project = request.project ?? firstProject ?? null;
  const view = { rows, made: 0, pausesMs: [], stoppedAt: null, project, refused: new Map() };
  const state = settled ? 'settled' : 'running';
  const kind = kindOf(request).view(request, view, state);
  return { ...kind, task_id: request.task_id } as RunResult;
}

/** What a run answers before it has run (wait=false, or a run another call holds): its envelope, pending. */
function pendingView(request: RunRequest): RunResult {
  return { ...viewOf(request, [], false), status: 'pending' } as RunResult;
}

/** A run row as the surfaces show it: its settled envelope, or its steps so far with the row's status. */
export async function runView(
  runtime: Pick<OperationContext['runtime'], 'queue'>,
  record: TaskRecord,
): Promise<RunResult> {
  if (record.status === 'completed' && record.result) return record.result as RunResult;
  const request = parseRunRequest(record.payload, record.taskId);
  const view = viewOf(request, await runtime.queue.steps(record.taskId), isSettled(record));
  const status = record.status === 'working' ? 'running' : record.status;
  return { ...view, status, ...(record.error ? { error: record.error } : {}) } as RunResult;
}

/** Runs a queued run row in this process: claimed, then its steps. */
async function claimAndRun(
  context: OperationContext,
  taskId: string,
  profile: string,
  options: Parameters<typeof runClaimedRun>[2],
) {
  const { runtime } = context;
  const claimed = await runtime.queue.claim(taskId, runtime.claimantFor(profile));
  if (claimed === null) throw new UsageError(`Run ${taskId} was claimed by another process.`);
  return runClaimedRun(runtime, claimed, options);
}

function dispatchRun(
  context: OperationContext,
  request: RunRequest,
  wait: boolean,
  extra: { readonly resubmitUnconfirmed?: boolean } = {},
): Promise<RunResult> {
  return dispatchTask(context, {
    taskId: request.task_id,
    profile: request.profile,
    wait,
    pending: pendingView(request),
    settled: (record) => runView(context.runtime, record),
    run: (options) => claimAndRun(context, request.task_id, request.profile, { ...options, ...extra }),
  });
}

/** A run an earlier call made with the same idempotency key: its envelope, followed to its end when the caller waits. */
async function earlierRun(context: OperationContext, record: TaskRecord, wait: boolean): Promise<RunResult> {
  if (!isRunPayload(record.payload))
    throw new UsageError(`idempotency_key names task ${record.taskId}, which is not a run of this kind.`, {
      extensions: { parameter: 'idempotency_key', task_id: record.taskId },
    });
  const settled =
    wait && !isSettled(record) ? await awaitTask(context.runtime, record.taskId, { signal: context.signal }) : record;
  return runView(context.runtime, settled);
}

/**
 * A new run: its row written (the run's request, checked like user input), then run in this call
 * or in the background like any task. With an idempotency key a repeated call returns the run the
 * first one made instead of paying again.
 */
export async function submitRun(
  context: OperationContext,
  run: NewRun,
  options: {
    readonly wait: boolean;
    readonly idempotencyKey?: string | undefined;
    readonly taskId?: string;
    readonly pool?: string | undefined;
  },
): Promise<RunResult> {
  const { queue } = context.runtime;
  const earlier =
    options.idempotencyKey === undefined
      ? undefined
      : await queue.findByIdempotencyKey(run.profile, options.idempotencyKey);
  if (earlier !== undefined) return earlierRun(context, earlier, options.wait);
  const request = runRequest.parse({
    ...run,
    schema_version: RUN_REQUEST_VERSION,
    kind: 'run',
    task_id: options.taskId ?? randomUUID(),
  });
  await queue.create({
    taskId: request.task_id,
    profile: request.profile,
    taskType: request.run,
    payload: request as unknown as Record<string, unknown>,
    ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
    ...(options.pool === undefined ? {} : { pool: options.pool }),
  });
  return dispatchRun(context, request, options.wait);
}

/** Settles the rows whose runners are gone (the queue knows who is alive: this host's pids, or the fleet's workers). */
async function settleDeadRunners(queue: TaskQueue): Promise<void> {
  const working = (await queue.list({ status: 'working', limit: 1000 })).items;
  const alive = new Map<string, boolean>();
  for (const row of working)
    if (row.claimant !== null && !alive.has(row.claimant))
      alive.set(row.claimant, await queue.claimantAlive(row.claimant));
  await queue.settleAbandoned({ isAlive: (claimant) => alive.get(claimant) ?? false });
}

/**
 * Continues a run that ended (a failure, a cancel, a kill, Ctrl-C): its row requeued and run again.
 * Steps that completed are kept, steps that may have been submitted are recovered by their ids,
 * and only steps that never reached their submit are submitted. A run still held by a live
 * process is refused.
 */
export async function resumeRun(
  context: OperationContext,
  runId: string,
  options: {
    readonly wait: boolean;
    readonly kind: RunRequest['run'];
    readonly profile?: string | undefined;
    readonly resubmitUnconfirmed?: boolean;
  },
): Promise<RunResult> {
  const { queue } = context.runtime;
  const record = await queue.get(runId);
  if (
    record === undefined ||
    !isRunPayload(record.payload) ||
    record.taskType !== options.kind ||
    (options.profile !== undefined && record.profile !== options.profile)
  )
    throw new ReferenceNotFoundError(
      `No ${options.kind} ${runId} in this catalog${options.profile ? ` for profile ${options.profile}` : ''}.`,
      {
        extensions: { parameter: 'resume_from' },
      },
    );
  const request = parseRunRequest(record.payload, runId);
  if (record.status === 'completed') return { ...(record.result as RunResult), made: 0 };
  if (record.status === 'working' && record.claimant !== null && (await queue.claimantAlive(record.claimant)))
    throw new UsageError(
      `Run ${runId} is still running (in another gflow process); follow it with 'gflow task wait ${runId}'.`,
      {
        extensions: { task_id: runId },
      },
    );
  if (record.status === 'working') await settleDeadRunners(queue);
  if (options.resubmitUnconfirmed === true && !options.wait)
    throw new UsageError('resubmit_unconfirmed needs wait=true: the consent is given to this call, not to a worker.', {
      extensions: { parameter: 'resubmit_unconfirmed' },
    });
  if ((await queue.get(runId))?.status !== 'pending') await queue.requeue(runId);
  const extra = options.resubmitUnconfirmed === true ? { resubmitUnconfirmed: true } : {};
  return dispatchRun(context, request, options.wait, extra);
}
