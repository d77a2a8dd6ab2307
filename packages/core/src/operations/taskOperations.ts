// The task queue as operations (`gflow task list|show|wait|cancel`, and a library user): every
// wait=false generation is a row of the catalog's queue, whoever runs it (the CLI's background
// worker, an MCP server's own background). The row is the truth; these read and steer it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskRecord, TaskStatus } from '@gflow/catalog';
import { parseClaimant } from '@gflow/catalog/claimant';
import { ReferenceNotFoundError, TransportTimeoutError } from '@gflow/errors';
import { z } from 'zod';
import { progressOf } from '../tasks/taskProgress.js';
import { knownProfileFilter } from './catalogParams.js';
import { followTask, stillOpenDetail } from './taskFollowing.js';
import { type GenerationResult, generationResult } from '../generation/schemas.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import { chainResult, generateBatchResult } from '../runs/index.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';
import { SERVER_TASK_WAIT_SECONDS, SURFACE_POLICY } from '../runtime/surfacePolicy.js';

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
  /** A generation's envelope, or a run's (a batch's, a chain's: its steps' envelopes inside). */
  result: z.union([generationResult, generateBatchResult, chainResult]).nullable(),
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

async function load(context: OperationContext, id: string): Promise<TaskRecord> {
  const record = await context.runtime.queue.get(id);
  if (!record) {
    throw new ReferenceNotFoundError(`No task with id ${id} in this home's catalog.`, {
      extensions: { task_id: id },
      remediationHint:
        "List the tasks with 'gflow task list'; a task queued with --sandbox is in the sandbox's catalog (add --sandbox).",
    });
  }
  return record;
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal });
}

/** Every surface: an agent whose client has no Tasks extension follows its wait=false jobs with these. */
const local = { usesBrowser: false } as const;

/** How long a call waits here at most: what it asked for, under its surface's bound (SURFACE_POLICY taskWait). */
function boundedSeconds(asked: number | undefined, context: OperationContext): number | undefined {
  const bound = SURFACE_POLICY[context.surface].taskWait.boundSeconds;
  if (bound === null) return asked;
  return asked === undefined ? bound : Math.min(asked, bound);
}

export const listTasks = defineOperation({
  name: 'listTasks',
  mcpName: 'gflow_task_list',
  title: 'List queued generation tasks',
  description:
    "The tasks of this home's queue (every wait=false / --no-wait generation, whoever queued it), newest first, paginated: status, last phase, whether credits may have been spent, who runs it. No prompts. Local data only.",
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
    const page = await runtime.queue.list({
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
  mcpName: 'gflow_task_get',
  title: 'Show a queued generation task',
  description:
    'One task of the queue, at once: its status and last phase, the wait=true envelope (with its files) once completed, its problem details once it failed or was cancelled. An unknown id is reference-not-found (exit 32). Local data only.',
  kind: 'read',
  ...local,
  input: z.object({ task_id: taskId }),
  output: z.strictObject({ status: z.literal('ok'), task: shownTask }),
  handler: async (input, context) => ({ status: 'ok' as const, task: shownOf(await load(context, input.task_id)) }),
});

export const waitTask = defineOperation({
  name: 'waitTask',
  mcpName: 'gflow_task_wait',
  title: 'Wait for a queued generation task',
  description: `Follows a task of the queue until it settles, reporting its phases as progress (the job records them in its row), and returns the envelope wait=true would have: completed with its files, or failed / cancelled / indeterminate with its error. A task whose worker stopped is picked up (the CLI starts a worker; said on the log), or refused with exit 1 (daemon-recovery) naming what to do when nobody can run it. Over MCP one call waits at most ${SERVER_TASK_WAIT_SECONDS} s (under a client's tool timeout): if the task is still running then, it answers {status:"pending", task_status, phase, may_have_spent, elapsed_seconds} — call again. On the CLI, timeout_seconds running out is exit 9 (transport-timeout) and leaves the task to whoever runs it.`,
  kind: 'read',
  ...local,
  input: z.object({
    task_id: taskId,
    timeout_seconds: z
      .number()
      .min(0)
      .max(86_400)
      .optional()
      .describe(
        `Give up waiting after this long (the task is left to whoever runs it); default: until it settles (MCP: at most ${SERVER_TASK_WAIT_SECONDS} s a call).`,
      ),
    poll_ms: z.number().int().min(50).max(10_000).default(250).describe('How often the row is read.'),
  }),
  output: generationResult,
  handler: async (input, context) => {
    const started = Date.now();
    const seconds = boundedSeconds(input.timeout_seconds, context);
    const deadline = seconds === undefined ? Infinity : started + seconds * 1000;
    let last = '';
    for (;;) {
      const loaded = await load(context, input.task_id);
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
      if (Date.now() >= deadline) return boundPassed(record, seconds ?? 0, started, context, who);
      await pause(Math.min(input.poll_ms, Math.max(1, deadline - Date.now())), context.signal);
    }
  },
});

/** The bound of a wait passed with the task still running: its progress so far (servers) or a timeout (CLI, library). */
function boundPassed(
  record: TaskRecord,
  seconds: number,
  started: number,
  context: OperationContext,
  who: string | undefined,
): GenerationResult {
  if (SURFACE_POLICY[context.surface].taskWait.onBound === 'progress') {
    return {
      status: 'pending',
      task_id: record.taskId,
      task_type: record.taskType,
      task_status: record.status,
      phase: record.status === 'pending' ? null : (record.checkpoint?.phase ?? null),
      may_have_spent: record.checkpoint?.may_have_spent === true,
      elapsed_seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(record.checkpoint?.project_id ? { flow_project_id: record.checkpoint.project_id } : {}),
      hint: 'Still running: call gflow_task_wait again (or gflow_task_get to look without waiting).',
    };
  }
  throw new TransportTimeoutError(stillOpenDetail(record, seconds, who), {
    extensions: { task_id: record.taskId, task_status: record.status, phase: record.checkpoint?.phase ?? null },
    remediationHint: `Wait again with 'gflow task wait ${record.taskId}', or stop it with 'gflow task cancel ${record.taskId}'.`,
  });
}

export const cancelTask = defineOperation({
  name: 'cancelTask',
  mcpName: 'gflow_task_cancel',
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
      .describe(
        `How long to wait for a running task to settle after the request (0: do not wait; MCP: at most ${SERVER_TASK_WAIT_SECONDS} s).`,
      ),
  }),
  output: z.strictObject({ status: z.literal('ok'), task: shownTask }),
  handler: async (input, context) => {
    const tasks = context.runtime.queue;
    await load(context, input.task_id);
    let record = await tasks.cancel(input.task_id);
    const deadline = Date.now() + (boundedSeconds(input.timeout_seconds, context) ?? 0) * 1000;
    while (!TERMINAL.has(record.status) && Date.now() < deadline) {
      await pause(Math.min(250, Math.max(1, deadline - Date.now())), context.signal);
      record = await load(context, input.task_id);
    }
    return { status: 'ok' as const, task: shownOf(record) };
  },
});

export const TASK_OPERATIONS = [listTasks, showTask, waitTask, cancelTask] as const;
