// The MCP Tasks extension as the journeys use it: tasks/get and tasks/cancel over the kit's client.
import type { McpConnection } from '@gflow/testkit/mcp';

/** What `tasks/get` answers (the Tasks extension). */
export interface TaskReply {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly ttlMs: null;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An explicit result schema (Standard Schema v1, hand-written: this package has no zod). */
export const taskReplySchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'gflow-e2e',
    types: undefined as unknown as { readonly input: unknown; readonly output: TaskReply },
    validate(value: unknown): { value: TaskReply } | { issues: Array<{ message: string }> } {
      const issues: Array<{ message: string }> = [];
      if (!isRecord(value)) return { issues: [{ message: 'not an object' }] };
      if (typeof value['taskId'] !== 'string') issues.push({ message: 'taskId is not a string' });
      if (typeof value['status'] !== 'string') issues.push({ message: 'status is not a string' });
      if (value['ttlMs'] !== null) issues.push({ message: 'ttlMs is not null' });
      if (typeof value['createdAt'] !== 'string') issues.push({ message: 'createdAt is not a string' });
      if (typeof value['lastUpdatedAt'] !== 'string') issues.push({ message: 'lastUpdatedAt is not a string' });
      if (
        'statusMessage' in value &&
        value['statusMessage'] !== undefined &&
        typeof value['statusMessage'] !== 'string'
      )
        issues.push({ message: 'statusMessage is not a string' });
      if ('result' in value && value['result'] !== undefined && !isRecord(value['result']))
        issues.push({ message: 'result is not an object' });
      return issues.length ? { issues } : { value: value as unknown as TaskReply };
    },
  },
};

/** An empty acknowledgement (tasks/cancel). */
export const ackSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'gflow-e2e',
    types: undefined as unknown as { readonly input: unknown; readonly output: Record<string, unknown> },
    validate(value: unknown): { value: Record<string, unknown> } | { issues: Array<{ message: string }> } {
      return isRecord(value) ? { value } : { issues: [{ message: 'not an object' }] };
    },
  },
};

export function getTask(conn: McpConnection, taskId: string): Promise<TaskReply> {
  return conn.client.request({ method: 'tasks/get', params: { taskId } }, taskReplySchema);
}

export function cancelTask(conn: McpConnection, taskId: string): Promise<Record<string, unknown>> {
  return conn.client.request({ method: 'tasks/cancel', params: { taskId } }, ackSchema);
}
