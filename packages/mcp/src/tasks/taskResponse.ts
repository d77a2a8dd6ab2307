import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TaskView } from '@gflow/core';
import { renderToolResult } from '../tools/renderResult.js';

/** A task as the io.modelcontextprotocol/tasks extension (SEP-2663) shows it. */
export interface TaskResponse {
  readonly taskId: string;
  readonly status: 'working' | 'completed' | 'cancelled';
  readonly statusMessage?: string;
  readonly result?: CallToolResult;
  /** gflow keeps task rows with no expiry. */
  readonly ttlMs: null;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly [key: string]: unknown;
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

/** The ids a stopped task carries, so there is something to check. */
function idsOf(view: TaskView): Record<string, unknown> {
  return {
    ...(view.flow_project_id ? { flow_project_id: view.flow_project_id } : {}),
    ...(view.flow_media_ids ? { flow_media_ids: view.flow_media_ids } : {}),
    ...(view.flow_workflow_ids ? { flow_workflow_ids: view.flow_workflow_ids } : {}),
  };
}

/**
 * Maps a core task row onto SEP-2663. A failed generation is `completed` with
 * `result.isError: true` (SEP-2663 keeps `failed` for protocol errors); a
 * cancelled job is `cancelled`, and one cancelled after its submit
 * (`indeterminate`) says a credit may have been spent.
 */
export function taskResponse(view: TaskView): TaskResponse {
  const base = {
    taskId: view.task_id,
    ttlMs: null,
    createdAt: view.created_at,
    lastUpdatedAt: view.updated_at,
  } as const;
  switch (view.status) {
    case 'pending':
      return { ...base, status: 'working', statusMessage: 'queued' };
    case 'working':
      return { ...base, status: 'working', ...(view.phase ? { statusMessage: view.phase } : {}) };
    case 'completed':
      return {
        ...base,
        status: 'completed',
        result: renderToolResult(view.result ?? { status: 'completed', task_id: view.task_id }),
      };
    case 'failed':
      return {
        ...base,
        status: 'completed',
        result: renderToolResult({
          ...(view.result ?? {}),
          status: 'failed',
          task_id: view.task_id,
          ...(view.error ? { error: view.error } : {}),
        }),
      };
    case 'cancelled':
      return { ...base, status: 'cancelled', ...idsOf(view) };
    case 'indeterminate':
      return { ...base, status: 'cancelled', statusMessage: mayHaveSpent(view), ...idsOf(view) };
  }
}
