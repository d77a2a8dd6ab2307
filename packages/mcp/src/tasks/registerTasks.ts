import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { GflowLike } from '../gflowPort.js';
import { detailedTask } from './taskResponse.js';
import { clientDeclaresTasks, missingTasksCapability } from './tasksExtension.js';

export { TASKS_EXTENSION } from './tasksExtension.js';
/** A queued task as a resource: what tasks/get answers, for readers that cannot send tasks/get (the MCP App's view). */
export const TASK_TEMPLATE = 'gflow://tasks/{task_id}';
/** A task's state changes by the second: never cached. */
const TASK_READ_HINT = { ttlMs: 0, cacheScope: 'private' } as const;

const taskId = z.string().min(1).max(200);
const taskParams = z.looseObject({ taskId });
const updateParams = z.looseObject({ taskId, inputResponses: z.record(z.string(), z.unknown()).optional() });

const unknownTask = (id: string): ProtocolError =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task ${JSON.stringify(id.slice(0, 200))}.`);

/**
 * The Tasks extension (SEP-2663), which the SDK does not implement, over core's task service —
 * any task of the queue, whatever made it. For a client that declares the extension (per
 * request): `tasks/get` answers the DetailedTask, `tasks/update` hands answers to a job waiting on
 * them, `tasks/cancel` stops a job and acknowledges (also a settled one: nothing is left to stop);
 * each answers -32602 for an unknown id. A client that does not declare it gets -32021 from all
 * three. `tasks/result` and `tasks/list` were removed by SEP-2663: they stay unregistered (-32601).
 * A task id is a bearer capability: whoever knows it can read, answer or cancel it.
 */
export function registerTasks(server: McpServer, gflow: GflowLike): void {
  const gated = (method: string, ctx: ServerContext): void => {
    if (!clientDeclaresTasks(ctx)) throw missingTasksCapability(method);
  };
  // Custom methods need the low-level server (reference/mcp-sdk-v2.md §3).
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => {
    gated('tasks/get', ctx);
    await gflow.ready();
    const view = await gflow.tasks.get(params.taskId);
    if (!view) throw unknownTask(params.taskId);
    return { ...detailedTask(view) };
  });

  server.server.setRequestHandler('tasks/update', { params: updateParams }, async (params, ctx) => {
    gated('tasks/update', ctx);
    await gflow.ready();
    // On 2026-07-28 the SDK lifts `inputResponses` out of the params into the context (as for a multi-round-trip retry).
    const responses = params.inputResponses ?? { ...(ctx.mcpReq.inputResponses ?? {}) };
    if (!(await gflow.tasks.update(params.taskId, responses))) throw unknownTask(params.taskId);
    return {};
  });

  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    gated('tasks/cancel', ctx);
    await gflow.ready();
    if (!(await gflow.tasks.cancel(params.taskId))) throw unknownTask(params.taskId);
    return {};
  });

  registerTaskResource(server, gflow);
}

/**
 * The same answer as a resource: a host reads it for the MCP App's view (ui://gflow/result.html),
 * which can read resources through the host but cannot send tasks/get. Not listed: ids come
 * from a wait=false result, and a task id stays a bearer capability.
 */
function registerTaskResource(server: McpServer, gflow: GflowLike): void {
  server.registerResource(
    'task',
    new ResourceTemplate(TASK_TEMPLATE, { list: undefined }),
    {
      title: 'gflow queued task',
      description:
        'A task queued with wait=false, as tasks/get answers it (JSON): working with its phase, completed with its result, or cancelled.',
      mimeType: 'application/json',
      cacheHint: TASK_READ_HINT,
    },
    async (uri, variables) => {
      const id = String(variables['task_id'] ?? '').slice(0, 200);
      await gflow.ready();
      const view = await gflow.tasks.get(id);
      if (!view) throw new ResourceNotFoundError(uri.href, `Unknown task ${JSON.stringify(id)}.`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(detailedTask(view)) }] };
    },
  );
}
