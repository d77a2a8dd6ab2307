import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { GflowLike } from '../gflowPort.js';
import { taskResponse } from './taskResponse.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** A queued generation as a resource: what tasks/get answers, for readers that cannot send tasks/get (the MCP App's view). */
export const TASK_TEMPLATE = 'gflow://tasks/{task_id}';
/** A task's state changes by the second: never cached. */
const TASK_READ_HINT = { ttlMs: 0, cacheScope: 'private' } as const;

const taskParams = z.looseObject({ taskId: z.string().min(1).max(200) });

/**
 * The Tasks extension (SEP-2663), which the SDK does not implement:
 * `tasks/get` reads a generation queued with wait=false, `tasks/cancel` stops
 * it and answers an empty acknowledgement (also for an unknown id). There is no `tasks/result`
 * (removed by SEP-2663): it stays unregistered, so the SDK answers -32601.
 * A task id is a bearer capability: whoever knows it can read or cancel it.
 */
export function registerTasks(server: McpServer, gflow: GflowLike): void {
  const unknownTask = (taskId: string): ProtocolError =>
    new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task ${JSON.stringify(taskId.slice(0, 200))}.`);

  // Custom methods need the low-level server (reference/mcp-sdk-v2.md §3).
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async (params) => {
    await gflow.ready();
    const view = gflow.tasks.get(params.taskId);
    if (!view) throw unknownTask(params.taskId);
    return taskResponse(view);
  });

  // The same answer as a resource: a host reads it for the MCP App's view (ui://gflow/result.html),
  // which can read resources through the host but cannot send tasks/get. Not listed: ids come
  // from a wait=false result, and a task id stays a bearer capability.
  server.registerResource(
    'task',
    new ResourceTemplate(TASK_TEMPLATE, { list: undefined }),
    {
      title: 'gflow queued task',
      description:
        'A generation queued with wait=false, as tasks/get answers it (JSON): working with its phase, completed with its result, or cancelled.',
      mimeType: 'application/json',
      cacheHint: TASK_READ_HINT,
    },
    async (uri, variables) => {
      const taskId = String(variables['task_id'] ?? '').slice(0, 200);
      await gflow.ready();
      const view = gflow.tasks.get(taskId);
      if (!view) throw new ResourceNotFoundError(uri.href, `Unknown task ${JSON.stringify(taskId)}.`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(taskResponse(view)) }] };
    },
  );

  // SEP-2663: cancel answers the empty acknowledgement whatever the id — a task that is unknown (or
  // already finished) has nothing left to stop, and the id's existence is not disclosed.
  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params) => {
    await gflow.ready();
    await gflow.tasks.cancel(params.taskId);
    return {};
  });
}
