// The task queue as operations (`gflow task list|show|wait|cancel`, and a library user): every
// wait=false generation is a row of the catalog's queue, whoever runs it (the CLI's background
// worker, an MCP server's own background). The row is the truth; these read and steer it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskRecord, TaskStatus } from '@gflow/catalog';
import { parseClaimant } from '@gflow/catalog/claimant';
import {
  CancelledError,
  type ProblemDetails,
  ReferenceNotFoundError,
  TransportTimeoutError,
  fromProblem,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { z } from 'zod';
import type { ProgressEvent, ProgressPhase } from '../runtime/progressPhases.js';
import { PROGRESS_PHASES } from '../runtime/progressPhases.js';
import { knownProfileFilter } from './catalogParams.js';
import { followTask, stillOpenDetail } from './taskFollowing.js';
import { type GenerationResult, generationResult } from '../generation/index.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';

/** Every status of a queued task, in the order a task goes through them. */
export const TASK_STATUSES = [
  'pending',
  'working',
  'completed',
  'failed',
  'cancelled',
  'indeterminate',
] as const satisfies readonly TaskStatus[];

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'indeterminate']);

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, 'an ISO 8601 timestamp');
const taskId = z
  .string()
  .trim()
  .regex(/^[\w-]{1,128}$/, 'task_id must be 1–128 letters, digits, "_" or "-"')
  .describe('The task id a wait=false generation (--no-wait) printed.');

/** One task as the listing shows it: no prompt (a task id is a capability, the listing is not). */
export const taskRow = z.strictObject({
  task_id: z.string().min(1),
  task_type: z.string().min(1),
  profile: z.string().min(1),
  /** What queued it: the CLI command (`image t2i`) or the MCP tool. */
  command: z.string().nullable(),
  status: z.enum(TASK_STATUSES),
  /** The last phase the job recorded (claimed, starting-browser, submitting, downloading, …). */
  phase: z.string().nullable(),
  /** True once the submit click may have fired: credits may have been spent. */
  may_have_spent: z.boolean(),
  cancel_requested: z.boolean(),
  /** Who runs (or ran) it: `worker` (the CLI's background worker), `mcp`, `http`, … and its pid. */
  runner: z.strictObject({ surface: z.string(), pid: z.number().int() }).nullable(),
  created_at: isoTime,
  claimed_at: isoTime.nullable(),
  updated_at: isoTime,
});

/** One task in full: the row, its result (the wait=true envelope) once completed, its problem once it failed. */
export const shownTask = taskRow.extend({
  flow_project_id: z.string().nullable(),
  flow_media_ids: z.array(z.string()),
  result: generationResult.nullable(),
  error: z.looseObject({ type: z.string(), detail: z.string() }).nullable(),
});

function rowOf(record: TaskRecord): z.output<typeof taskRow> {
  const runner = record.claimant ? parseClaimant(record.claimant) : undefined;
  const command = (record.payload as { command?: unknown }).command;
  return {
    task_id: record.taskId,
    task_type: record.taskType,
    profile: record.profile,
    command: typeof command === 'string' ? command : null,
    status: record.status,
    phase: record.status === 'pending' ? null : (record.checkpoint?.phase ?? null),
    may_have_spent: record.checkpoint?.may_have_spent === true,
    cancel_requested: record.cancelRequestedAt !== null,
    runner: runner ? { surface: runner.surface, pid: runner.pid } : null,
    created_at: record.createdAt,
    claimed_at: record.claimedAt,
    updated_at: record.updatedAt,
  };
}

function shownOf(record: TaskRecord): z.output<typeof shownTask> {
  return {
    ...rowOf(record),
    flow_project_id: record.checkpoint?.project_id ?? null,
    flow_media_ids: [...(record.checkpoint?.media_ids ?? [])],
    result: record.status === 'completed' ? (record.result as GenerationResult) : null,
    error: record.error ? { ...(record.error as { type: string; detail: string }) } : null,
  };
}

/** The problem of a task that ended without one of its own (a queued task cancelled before it ran). */
function problemOf(record: TaskRecord): ProblemDetails & { message: string } {
  if (record.error) {
    const stored = record.error as unknown as ProblemDetails;
    return { ...toErrorEnvelopeBody(fromProblem(stored)), ...stored };
  }
  const error =
    record.status === 'indeterminate'
      ? new CancelledError(`Task ${record.taskId} was stopped after its submit: credits may have been spent.`)
      : new CancelledError(`Task ${record.taskId} was cancelled before it ran; nothing was sent to Flow.`);
  return toErrorEnvelopeBody(error);
}

/**
 * The envelope a settled task ends with, the one wait=true returns: the stored result once
 * completed; otherwise its status, the ids Flow named and the error (problem details + message).
 */
export function finalEnvelopeOf(record: TaskRecord): GenerationResult {
  if (record.status === 'completed' && record.result) return record.result as GenerationResult;
  const media = record.checkpoint?.media_ids ?? [];
  const status = record.status === 'completed' ? 'failed' : record.status;
  return {
    status: status === 'pending' || status === 'working' ? 'pending' : status,
    task_id: record.taskId,
    task_type: record.taskType,
    ...(media[0] ? { flow_media_id: media[0], flow_media_ids: [...media] } : {}),
    ...(record.checkpoint?.project_id ? { flow_project_id: record.checkpoint.project_id } : {}),
    error: problemOf(record),
  };
}

function load(context: OperationContext, id: string): TaskRecord {
  const record = context.runtime.catalog.tasks.get(id);
  if (!record) {
    throw new ReferenceNotFoundError(`No task with id ${id} in this home's catalog.`, {
      extensions: { task_id: id },
      remediationHint:
        "List the tasks with 'gflow task list'; a task queued with --sandbox is in the sandbox's catalog (add --sandbox).",
    });
  }
  return record;
}

/** What a running task reports while `waitTask` follows it: its status and last phase as a progress event. */
export function progressOf(record: TaskRecord, elapsedMs: number): ProgressEvent {
  const raw = record.status === 'pending' ? 'queued' : (record.checkpoint?.phase ?? 'queued');
  const known = (PROGRESS_PHASES as readonly string[]).includes(raw);
  const phase: ProgressPhase = known
    ? (raw as ProgressPhase)
    : raw === 'opening'
      ? 'starting-browser'
      : record.status === 'pending'
        ? 'queued'
        : 'starting-browser';
  return { phase, ...(known || raw === 'opening' ? {} : { message: raw }), elapsedMs };
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal });
}

const local = { usesBrowser: false, surfaces: ['cli', 'library'] } as const;

export const listTasks = defineOperation({
  name: 'listTasks',
  mcpName: 'gflow_list_tasks',
  title: 'List queued generation tasks',
  description:
    'The generation tasks of the local queue (wait=false / --no-wait), newest first, paginated: status, last phase, whether credits may have been spent, who runs it. Local data only.',
  kind: 'read',
  ...local,
  input: z.object({
    profile: z.string().trim().min(1).optional().describe('Only this profile (default: every profile).'),
    status: z.enum(TASK_STATUSES).optional().describe('Only tasks in this status.'),
    limit: z.number().int().min(1).max(1000).default(20).describe('Rows per page, 1–1000.'),
    offset: z.number().int().min(0).default(0).describe('Rows to skip.'),
  }),
  output: z.strictObject({
    status: z.literal('ok'),
    items: z.array(taskRow),
    count: z.number().int().min(0),
    offset: z.number().int().min(0),
    has_more: z.boolean(),
    next_offset: z.number().int().min(0).nullable(),
  }),
  handler: async (input, { runtime }) => {
    const page = runtime.catalog.tasks.list({
      limit: input.limit,
      offset: input.offset,
      ...knownProfileFilter(runtime, input.profile),
      ...(input.status ? { status: input.status } : {}),
    });
    return {
      status: 'ok' as const,
      items: page.items.map(rowOf),
      count: page.count,
      offset: page.offset,
      has_more: page.hasMore,
      next_offset: page.nextOffset,
    };
  },
});

export const showTask = defineOperation({
  name: 'showTask',
  mcpName: 'gflow_show_task',
  title: 'Show a queued generation task',
  description:
    'One task of the local queue: its row, the wait=true envelope once completed, its problem details once it failed or was cancelled. An unknown id is exit 32 (reference-not-found). Local data only.',
  kind: 'read',
  ...local,
  input: z.object({ task_id: taskId }),
  output: z.strictObject({ status: z.literal('ok'), task: shownTask }),
  handler: async (input, context) => ({ status: 'ok' as const, task: shownOf(load(context, input.task_id)) }),
});

export const waitTask = defineOperation({
  name: 'waitTask',
  mcpName: 'gflow_wait_task',
  title: 'Wait for a queued generation task',
  description:
    'Follows a task of the local queue until it settles, reporting its phases as progress (the job records them in its row), and returns the envelope wait=true would have: completed with its files, or failed / cancelled / indeterminate with its error. A task whose worker stopped is picked up (the CLI starts a worker; said on the log), or refused with exit 1 (daemon-recovery) naming what to do when nobody can run it. timeout_seconds runs out as exit 9 (transport-timeout) and leaves the task to whoever runs it.',
  kind: 'read',
  ...local,
  input: z.object({
    task_id: taskId,
    timeout_seconds: z
      .number()
      .min(0)
      .max(86_400)
      .optional()
      .describe('Give up after this long (the task is left to whoever runs it); default: wait until it settles.'),
    poll_ms: z.number().int().min(50).max(10_000).default(250).describe('How often the row is read.'),
  }),
  output: generationResult,
  handler: async (input, context) => {
    const started = Date.now();
    const deadline = input.timeout_seconds === undefined ? Infinity : started + input.timeout_seconds * 1000;
    let last = '';
    for (;;) {
      const loaded = load(context, input.task_id);
      if (TERMINAL.has(loaded.status)) return finalEnvelopeOf(loaded);
      // Someone answers for it (a dead owner's row is settled or picked up here), or this throws.
      const { record, who } = await followTask(context, loaded);
      if (TERMINAL.has(record.status)) return finalEnvelopeOf(record);
      const event = progressOf(record, Date.now() - started);
      const key = `${record.status}/${record.checkpoint?.phase ?? ''}/${who ?? ''}`;
      if (key !== last) {
        last = key;
        context.onProgress?.(record.status === 'pending' && who ? { ...event, message: who } : event);
      }
      if (Date.now() >= deadline) {
        throw new TransportTimeoutError(stillOpenDetail(record, input.timeout_seconds, who), {
          extensions: { task_id: record.taskId, task_status: record.status, phase: record.checkpoint?.phase ?? null },
          remediationHint: `Wait again with 'gflow task wait ${record.taskId}', or stop it with 'gflow task cancel ${record.taskId}'.`,
        });
      }
      await pause(Math.min(input.poll_ms, Math.max(1, deadline - Date.now())), context.signal);
    }
  },
});

export const cancelTask = defineOperation({
  name: 'cancelTask',
  mcpName: 'gflow_cancel_task',
  title: 'Cancel a queued generation task',
  description:
    'Cancels a task of the local queue. A pending task is cancelled at once (nothing was sent). A running one is asked to stop (its row says cancel_requested; the process running it aborts the job within a second): it settles `cancelled` before its submit click, `indeterminate` after it (credits may have been spent), never `failed`. Waits up to timeout_seconds for it to settle. A settled task is left as it is.',
  kind: 'mutate',
  ...local,
  input: z.object({
    task_id: taskId,
    timeout_seconds: z
      .number()
      .min(0)
      .max(3600)
      .default(60)
      .describe('How long to wait for a running task to settle after the request (0: do not wait).'),
  }),
  output: z.strictObject({ status: z.literal('ok'), task: shownTask }),
  handler: async (input, context) => {
    const tasks = context.runtime.catalog.tasks;
    load(context, input.task_id);
    let record = tasks.cancel(input.task_id);
    const deadline = Date.now() + input.timeout_seconds * 1000;
    while (!TERMINAL.has(record.status) && Date.now() < deadline) {
      await pause(Math.min(250, Math.max(1, deadline - Date.now())), context.signal);
      record = load(context, input.task_id);
    }
    return { status: 'ok' as const, task: shownOf(record) };
  },
});

export const TASK_OPERATIONS = [listTasks, showTask, waitTask, cancelTask] as const;
