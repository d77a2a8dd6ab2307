import type { GenerationResult } from '../generation/index.js';

/**
 * A task's status: the catalog's queue states, shown as they are. Their one list is the catalog's
 * queue table (@gflow/catalog); restated here so the published declarations do not reach the
 * catalog's (drizzle's) types, and held equal to it by the compiler (taskServiceImpl.ts).
 */
export type TaskStatus = 'pending' | 'working' | 'completed' | 'cancelled' | 'indeterminate' | 'failed';

/** A generation task as the surfaces show it (tasks/get, `gflow data`). */
export interface TaskView {
  readonly task_id: string;
  readonly task_type: string;
  readonly profile: string;
  readonly status: TaskStatus;
  readonly created_at: string;
  readonly updated_at: string;
  /** The same payload wait=true returns; present once the task has settled. */
  readonly result?: GenerationResult;
  /** Problem details when the task failed. */
  readonly error?: Record<string, unknown>;
  /** The last phase reached (e.g. submitted), and whether credits may have been spent. */
  readonly phase?: string;
  readonly may_have_spent?: boolean;
  /** What Flow already named (the checkpoint): where to look when a task stopped after its submit. */
  readonly flow_project_id?: string;
  readonly flow_media_ids?: readonly string[];
  readonly flow_workflow_ids?: readonly string[];
}

/** Reading and steering generation tasks; a task id is a bearer capability. */
export interface TaskService {
  get(taskId: string): TaskView | undefined;
  /** Cancels a pending or working task; a task past its submit click settles `indeterminate`. */
  cancel(taskId: string): Promise<TaskView | undefined>;
}
