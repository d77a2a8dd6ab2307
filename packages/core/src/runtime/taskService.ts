import type { GenerationResult } from '../generation/schemas.js';
import type { InputRequest } from './taskInput.js';

/**
 * A task's status: the catalog's queue states, shown as they are. Their one list is the catalog's
 * queue table (@gflow/catalog); restated here so the published declarations do not reach the
 * catalog's (drizzle's) types, and held equal to it by the compiler (taskServiceImpl.ts).
 */
export type TaskStatus = 'pending' | 'working' | 'completed' | 'cancelled' | 'indeterminate' | 'failed';

/**
 * A task of the queue as the surfaces show it (tasks/get, the task tools): any task, whatever made
 * it — a generation today, a run of many steps later.
 */
export interface TaskView {
  readonly task_id: string;
  readonly task_type: string;
  readonly profile: string;
  readonly status: TaskStatus;
  readonly created_at: string;
  readonly updated_at: string;
  /** The envelope the task ended with, the one wait=true returns; present once the task has settled. */
  readonly result?: GenerationResult;
  /** Problem details when the task failed or was stopped. */
  readonly error?: Record<string, unknown>;
  /** A failed task that never produced a result of its own: its process died, its row could not be read, its job crashed. */
  readonly failed_to_run?: true;
  /** The last phase reached (e.g. submitted), and whether credits may have been spent. */
  readonly phase?: string;
  readonly may_have_spent?: boolean;
  /** What Flow already named (the checkpoint): where to look when a task stopped after its submit. */
  readonly flow_project_id?: string;
  readonly flow_media_ids?: readonly string[];
  readonly flow_workflow_ids?: readonly string[];
  /** The questions the running job waits on its client to answer, by key (present while there are some). */
  readonly input_requests?: Readonly<Record<string, InputRequest>>;
  /** A run's steps (a batch's prompts, a chain's links), each a task of its own. */
  readonly steps?: readonly StepView[];
}

/** One step of a run: its position, its own task id, its status and phase, and what it may have spent. */
export interface StepView {
  readonly index: number;
  readonly task_id: string;
  readonly status: TaskStatus;
  readonly phase: string | null;
  readonly may_have_spent: boolean;
  readonly flow_media_ids: readonly string[];
}

/** Reading and steering tasks; a task id is a bearer capability. */
export interface TaskService {
  /** The task as the surfaces show it; undefined for an unknown id. Asynchronous: the queue may be a fleet's PostgreSQL. */
  get(taskId: string): Promise<TaskView | undefined>;
  /** Cancels a pending or working task; a task past its submit click settles `indeterminate`. A settled one is left as it is. */
  cancel(taskId: string): Promise<TaskView | undefined>;
  /**
   * Answers questions the task's running job asked (its `input_requests`); answers to keys that
   * are not open are ignored. Undefined for an unknown task.
   */
  update(taskId: string, responses: Readonly<Record<string, unknown>>): Promise<TaskView | undefined>;
}
