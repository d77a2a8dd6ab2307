import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TaskView } from '@gflow/core';
import { renderToolResult } from '../tools/renderResult.js';

/** SEP-2663's task statuses. */
export type TaskWireStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error, as a `failed` task inlines it. */
export interface InlinedError {
  readonly code: number;
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/** The base Task of SEP-2663: what a CreateTaskResult carries, and every tasks/get answer starts with. */
export interface TaskBase {
  readonly taskId: string;
  readonly status: TaskWireStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** gflow keeps task rows with no expiry. */
  readonly ttlMs: null;
  readonly pollIntervalMs: number;
  /** What gflow adds: the task's own type and phase, and what Flow already named. */
  readonly _meta?: { readonly 'dev.gflow/task': Record<string, unknown> };
}

/** tasks/get's DetailedTask: the base plus what its status inlines. */
export interface DetailedTask extends TaskBase {
  readonly result?: CallToolResult & { readonly resultType: 'complete' };
  readonly error?: InlinedError;
  readonly inputRequests?: Record<string, unknown>;
}

/** SEP-2663's CreateTaskResult: a flat `Result & Task`, in lieu of the tool's result. */
export type CreateTaskResult = TaskBase & { readonly resultType: 'task' };

/** How often a client should ask (SEP-2663 `pollIntervalMs`): a generation moves on the order of seconds. */
export const POLL_INTERVAL_MS = 1_000;

/** JSON-RPC's internal error: a task that failed to run (its process died, its job crashed). */
const INTERNAL_ERROR = -32603;

/** What a stopped task carries: its phase, and the ids Flow named, so there is something to check. */
function gflowFields(view: TaskView): Record<string, unknown> {
  return {
    task_type: view.task_type,
    ...(view.phase ? { phase: view.phase } : {}),
    ...(view.may_have_spent !== undefined ? { may_have_spent: view.may_have_spent } : {}),
    ...(view.flow_project_id ? { flow_project_id: view.flow_project_id } : {}),
    ...(view.flow_media_ids ? { flow_media_ids: view.flow_media_ids } : {}),
    ...(view.flow_workflow_ids ? { flow_workflow_ids: view.flow_workflow_ids } : {}),
  };
}

/** What an agent checks for a task stopped after its submit: the project, and the media Flow named. */
function mayHaveSpent(view: TaskView): string {
  const project = view.flow_project_id
    ? `Flow project ${view.flow_project_id} (gflow://projects/${view.flow_project_id})`
    : 'the Flow project';
  const media = view.flow_media_ids?.length
    ? ` Flow named ${view.flow_media_ids.join(', ')}: gflow_download_media fetches ${view.flow_media_ids.length === 1 ? 'it' : 'them'} once done, spending nothing.`
    : '';
  return `Cancelled after its submit was sent: a credit may have been spent. Check ${project} before you retry.${media}`;
}

/** The status SEP-2663 shows for a core task, and its message. */
function wireStatusOf(view: TaskView): { status: TaskWireStatus; statusMessage?: string } {
  switch (view.status) {
    case 'pending':
      return { status: 'working', statusMessage: 'queued' };
    case 'working':
      if (view.input_requests) return { status: 'input_required', statusMessage: 'waiting for your answer' };
      return { status: 'working', ...(view.phase ? { statusMessage: view.phase } : {}) };
    case 'completed':
      return { status: 'completed' };
    case 'failed':
      return view.failed_to_run
        ? { status: 'failed', statusMessage: detailOf(view) }
        : { status: 'completed', statusMessage: 'ended with an error (result.isError)' };
    case 'cancelled':
      return { status: 'cancelled' };
    case 'indeterminate':
      return { status: 'cancelled', statusMessage: mayHaveSpent(view) };
  }
}

function detailOf(view: TaskView): string {
  const detail = view.error?.['detail'];
  return typeof detail === 'string' ? detail : 'The task could not be run.';
}

/** The base Task of a core task: what tools/call answers when it made one (no result, error or questions). */
export function taskBaseOf(view: TaskView): TaskBase {
  return {
    taskId: view.task_id,
    ...wireStatusOf(view),
    createdAt: view.created_at,
    lastUpdatedAt: view.updated_at,
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
    _meta: { 'dev.gflow/task': gflowFields(view) },
  };
}

/** SEP-2663's CreateTaskResult for a task a tools/call made: the seed state, nothing inlined. */
export function createTaskResult(view: TaskView): CreateTaskResult {
  return { resultType: 'task', ...taskBaseOf(view) };
}

/**
 * Maps any core task (a generation today, a run later) onto SEP-2663's DetailedTask. A task that
 * ran and failed (a refused prompt, an expired sign-in) is `completed` with the result wait=true
 * would have returned, `isError: true`; `failed`, with an inlined JSON-RPC error, is kept for a task
 * that failed to run (its process died, its job crashed). A cancelled job is `cancelled`, and one
 * cancelled after its submit (`indeterminate`) says a credit may have been spent. A job waiting on
 * the client is `input_required` with its questions.
 */
export function detailedTask(view: TaskView): DetailedTask {
  const base = taskBaseOf(view);
  if (base.status === 'input_required') return { ...base, inputRequests: { ...view.input_requests } };
  if (base.status === 'failed') return { ...base, error: inlinedError(view) };
  if (base.status !== 'completed') return base;
  // The result as tools/call would have answered it on the 2026-07-28 wire, `resultType` included (what
  // a requester decodes it with).
  const result = renderToolResult(view.result ?? { status: 'completed', task_id: view.task_id });
  return { ...base, result: { ...result, resultType: 'complete' } };
}

function inlinedError(view: TaskView): InlinedError {
  return { code: INTERNAL_ERROR, message: detailOf(view), ...(view.error ? { data: { ...view.error } } : {}) };
}
