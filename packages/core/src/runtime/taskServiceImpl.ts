import type { TaskQueue, TaskRecord, TaskStatus as QueueStatus } from '@gflow/catalog';
import type { JobRegistry } from './jobRegistry.js';
import { failedToRun } from '../tasks/failedToRun.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import type { GenerationResult } from '../generation/index.js';
import { isRunPayload } from '../runs/runPayload.js';
import { currentSteps } from '../runs/steps.js';
import type * as RunsModule from '../runs/index.js';

type RunViews = typeof RunsModule;

import type { StepView, TaskService, TaskStatus, TaskView } from './taskService.js';

/** Fails to compile when the public TaskStatus and the catalog queue's statuses drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const TASK_STATUSES_MATCH: Same<TaskStatus, QueueStatus> = true;

const SETTLED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'indeterminate']);

/** A run's steps as tasks/get shows them: the current row of each position (the running one says `working` and its phase). */
async function stepsOf(queue: TaskQueue, record: TaskRecord): Promise<StepView[]> {
  const rows = currentSteps(await queue.steps(record.taskId));
  return [...rows.entries()].map(([index, row]) => ({
    index,
    task_id: row.taskId,
    status: row.status,
    phase: row.checkpoint?.phase ?? null,
    may_have_spent: row.checkpoint?.may_have_spent === true,
    flow_media_ids: [...(row.checkpoint?.media_ids ?? [])],
  }));
}

/**
 * The run envelopes' module (their schemas, zod), loaded with the catalog (`loadRunViews`), never
 * with the runtime: a command that reads no task (`gflow models`) builds none of them.
 */
let runViews: RunViews | undefined;

/** Loads what a run's task view needs; the runtime calls it when it opens the catalog, before any task is read. */
export async function loadRunViews(): Promise<void> {
  runViews ??= await import('../runs/index.js');
}

async function settledRun(queue: TaskQueue, record: TaskRecord): Promise<GenerationResult> {
  if (record.status === 'completed' && record.result) return record.result as unknown as GenerationResult;
  if (runViews === undefined) throw new Error('loadRunViews() before a run is read');
  return (await runViews.runView({ queue }, record)) as unknown as GenerationResult;
}

/** What a run adds to its view: its steps, and (settled) its own envelope with every step's inside. */
async function runFields(queue: TaskQueue, record: TaskRecord): Promise<Partial<TaskView>> {
  if (!isRunPayload(record.payload)) return {};
  return {
    steps: await stepsOf(queue, record),
    ...(SETTLED.has(record.status) ? { result: await settledRun(queue, record) } : {}),
  };
}

/** A row as the surfaces show it; a run's view reads its steps through `queue`. */
export async function toTaskView(record: TaskRecord, jobs?: JobRegistry, queue?: TaskQueue): Promise<TaskView> {
  const open = jobs?.get(record.taskId)?.input?.open();
  return {
    task_id: record.taskId,
    task_type: record.taskType,
    profile: record.profile,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(SETTLED.has(record.status) ? { result: finalEnvelopeOf(record) } : {}),
    ...(record.error ? { error: { ...record.error } } : {}),
    ...(failedToRun(record) ? { failed_to_run: true as const } : {}),
    ...(record.checkpoint ? { phase: record.checkpoint.phase, may_have_spent: record.checkpoint.may_have_spent } : {}),
    ...(record.checkpoint?.project_id ? { flow_project_id: record.checkpoint.project_id } : {}),
    ...(record.checkpoint?.media_ids.length ? { flow_media_ids: [...record.checkpoint.media_ids] } : {}),
    ...(record.checkpoint?.workflow_ids.length ? { flow_workflow_ids: [...record.checkpoint.workflow_ids] } : {}),
    ...(record.status === 'working' && open && Object.keys(open).length > 0 ? { input_requests: open } : {}),
    ...(queue ? await runFields(queue, record) : {}),
  };
}

/**
 * tasks/get, tasks/cancel and tasks/update over the queue's task rows. Cancelling a job
 * this process runs aborts it; the worker then settles the row (`cancelled`,
 * or `indeterminate` after its submit click). A pending row is cancelled at once; a running one
 * another process holds is asked to stop (its row's cancel request). Answers reach a job this
 * process runs (a question lives with the job that asked it).
 */
export function createTaskService(queue: () => TaskQueue, jobs: JobRegistry): TaskService {
  const view = async (taskId: string): Promise<TaskView | undefined> => {
    const record = await queue().get(taskId);
    return record ? toTaskView(record, jobs, queue()) : undefined;
  };
  return {
    get: view,
    async cancel(taskId) {
      const tasks = queue();
      const record = await tasks.get(taskId);
      if (!record) return undefined;
      const running = jobs.get(taskId);
      if (running) {
        running.controller.abort(new DOMException('Cancelled by tasks/cancel.', 'AbortError'));
        await running.done.catch(() => undefined);
      } else {
        await tasks.cancel(taskId);
      }
      return view(taskId);
    },
    async update(taskId, responses) {
      if (!(await queue().get(taskId))) return undefined;
      jobs.get(taskId)?.input?.answer(responses);
      return view(taskId);
    },
  };
}
