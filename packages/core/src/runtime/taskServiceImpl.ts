import type { Catalog, TaskRecord, TaskStatus as QueueStatus } from '@gflow/catalog';
import type { GenerationResult } from '../generation/index.js';
import type { JobRegistry } from './jobRegistry.js';
import type { TaskService, TaskStatus, TaskView } from './taskService.js';

/** Fails to compile when the public TaskStatus and the catalog queue's statuses drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const TASK_STATUSES_MATCH: Same<TaskStatus, QueueStatus> = true;

export function toTaskView(record: TaskRecord): TaskView {
  return {
    task_id: record.taskId,
    task_type: record.taskType,
    profile: record.profile,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(record.result !== null && record.result !== undefined ? { result: record.result as GenerationResult } : {}),
    ...(record.error ? { error: { ...record.error } } : {}),
    ...(record.checkpoint ? { phase: record.checkpoint.phase, may_have_spent: record.checkpoint.may_have_spent } : {}),
    ...(record.checkpoint?.project_id ? { flow_project_id: record.checkpoint.project_id } : {}),
    ...(record.checkpoint?.media_ids.length ? { flow_media_ids: [...record.checkpoint.media_ids] } : {}),
    ...(record.checkpoint?.workflow_ids.length ? { flow_workflow_ids: [...record.checkpoint.workflow_ids] } : {}),
  };
}

/**
 * tasks/get and tasks/cancel over the catalog's task rows. Cancelling a job
 * this process runs aborts it; the worker then settles the row (`cancelled`,
 * or `indeterminate` after its submit click). A pending row is cancelled at once.
 */
export function createTaskService(catalog: () => Catalog, jobs: JobRegistry): TaskService {
  return {
    get(taskId) {
      const record = catalog().tasks.get(taskId);
      return record ? toTaskView(record) : undefined;
    },
    async cancel(taskId) {
      const tasks = catalog().tasks;
      const record = tasks.get(taskId);
      if (!record) return undefined;
      const running = jobs.get(taskId);
      if (running) {
        running.controller.abort(new DOMException('Cancelled by tasks/cancel.', 'AbortError'));
        await running.done.catch(() => undefined);
      } else {
        tasks.cancel(taskId);
      }
      const after = tasks.get(taskId);
      return after ? toTaskView(after) : undefined;
    },
  };
}
