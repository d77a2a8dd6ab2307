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

const MAY_HAVE_SPENT =
  'Cancelled after its submit was sent: a credit may have been spent. Check the Flow project before you retry.';

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
      return { ...base, status: 'cancelled' };
    case 'indeterminate':
      return { ...base, status: 'cancelled', statusMessage: MAY_HAVE_SPENT };
  }
}
