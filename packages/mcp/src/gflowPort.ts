import type { z } from 'zod';

/**
 * The part of @gflow/core's runtime this adapter uses, as a structural port.
 * `Gflow` from @gflow/core satisfies it; tests may build a real Gflow with a
 * few test operations. Keeping the port narrow means the adapter can only do
 * what an adapter should: list operations, run one, read tasks.
 */

export type OperationKind = 'read' | 'spend' | 'mutate';

/** A step of long work (core's ProgressEvent). */
export interface ProgressEventLike {
  readonly phase: string;
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
}

export interface OperationLike {
  readonly name: string;
  readonly mcpName: string;
  readonly title: string;
  readonly description: string;
  readonly kind: OperationKind;
  readonly usesBrowser: boolean;
  readonly input: z.ZodObject;
  readonly output: z.ZodType;
}

/** A generation task as core shows it (core's TaskView). */
export interface TaskViewLike {
  readonly task_id: string;
  readonly task_type: string;
  readonly status: 'pending' | 'working' | 'completed' | 'cancelled' | 'indeterminate' | 'failed';
  readonly created_at: string;
  readonly updated_at: string;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: Readonly<Record<string, unknown>>;
  readonly phase?: string;
  readonly may_have_spent?: boolean;
}

export interface TaskServiceLike {
  get(taskId: string): TaskViewLike | undefined;
  cancel(taskId: string): Promise<TaskViewLike | undefined>;
}

export interface GflowRunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEventLike) => void;
}

export interface GflowLike {
  readonly settings: { readonly noSpend?: boolean | undefined };
  operations(): readonly OperationLike[];
  operation(nameOrMcpName: string): OperationLike | undefined;
  run(name: string, input: unknown, options?: GflowRunOptions): Promise<unknown>;
  close(): Promise<void>;
  /** Generation tasks (tasks/get, tasks/cancel); absent until core wires its task service. */
  readonly tasks?: TaskServiceLike;
  /** The SQL text of the catalog schema (gflow://db/schema). */
  schemaSql?(): string;
  /** Local usage telemetry. */
  recordUsage?(surface: 'mcp', name: string): void;
}
