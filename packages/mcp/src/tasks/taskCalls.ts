import type { CallToolRequest, CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { Operation } from '@gflow/core';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { errorToolResult } from '../tools/errorEnvelope.js';
import { renderToolResult } from '../tools/renderResult.js';
import { createTaskResult } from './taskResponse.js';
import { clientDeclaresTasks, missingTasksCapability } from './tasksExtension.js';

type ToolsCallHandler = (request: CallToolRequest, ctx: ServerContext) => Promise<unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * McpServer's own tools/call handler (argument validation, the tool's callback, output
 * validation), which every call that makes no task goes to. The SDK has no public accessor for a
 * registered handler; `_getRequestHandler` is its protected one (the one its Client uses).
 */
function sdkToolsCallHandler(server: McpServer): ToolsCallHandler {
  const low = server.server as unknown as { _getRequestHandler?: (method: string) => ToolsCallHandler | undefined };
  const handler = low._getRequestHandler?.call(server.server, 'tools/call');
  if (!handler)
    throw new Error("The MCP SDK no longer exposes McpServer's tools/call handler: the Tasks dispatch cannot wrap it.");
  return handler;
}

/** The task id of a wait=false answer (`{status: "pending", task_id}`): whatever core task the operation queued. */
function pendingTaskId(value: unknown): string | undefined {
  if (!isRecord(value) || value['status'] !== 'pending') return undefined;
  return typeof value['task_id'] === 'string' ? value['task_id'] : undefined;
}

/**
 * Server-directed task creation (SEP-2663) in front of McpServer's tools/call. A tool whose
 * operation runs as a task (`task` on the operation), called by a client that declares the
 * extension on the request, runs with wait=false — the server decides, whatever `wait` says — and
 * answers a flat CreateTaskResult once its row exists (tasks/get resolves it at once). An answer
 * without a task id (a dry run, a refusal before anything was queued) is returned as the tool's
 * own result. A tool that only runs as a task refuses a client without the extension (-32021);
 * every other call goes to McpServer unchanged. Install after the tools are registered.
 */
export function installTaskCalls(server: McpServer, gflow: GflowLike, logger: GflowLogger): void {
  const taskOperations = new Map(gflow.operations().flatMap((op) => (op.task ? [[op.mcpName, op] as const] : [])));
  if (taskOperations.size === 0) return;
  const inner = sdkToolsCallHandler(server);
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const op = taskOperations.get(request.params.name);
    if (op && clientDeclaresTasks(ctx)) return (await startTask(gflow, op, request, ctx, logger)) as never;
    if (op?.task === 'required') throw missingTasksCapability(`The tool ${op.mcpName}`);
    return (await inner(request, ctx)) as CallToolResult;
  });
}

async function startTask(
  gflow: GflowLike,
  op: Operation,
  request: CallToolRequest,
  ctx: ServerContext,
  logger: GflowLogger,
): Promise<unknown> {
  const args = isRecord(request.params.arguments) ? request.params.arguments : {};
  const profile = typeof args['profile'] === 'string' ? args['profile'].slice(0, 200) : undefined;
  try {
    const value = await gflow.runByName(op.name, { ...args, wait: false }, { signal: ctx.mcpReq.signal });
    gflow.recordUsage(op.mcpName, profile, 'ok');
    const taskId = pendingTaskId(value);
    const view = taskId === undefined ? undefined : await gflow.tasks.get(taskId);
    return view ? createTaskResult(view) : renderToolResult(value);
  } catch (error) {
    gflow.recordUsage(op.mcpName, profile, 'error');
    return errorToolResult(error, op.mcpName, logger, ctx.mcpReq.signal);
  }
}
