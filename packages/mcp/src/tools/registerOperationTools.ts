import type { McpServer, RegisteredTool, ServerContext } from '@modelcontextprotocol/server';
import { type Operation, type ProgressEvent } from '@gflow/core';
import { annotationsFor } from '@gflow/core/surfaces';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { advertisedSchema, jsonSchemaRootType } from './advertisedSchema.js';
import { errorToolResult } from './errorEnvelope.js';
import { progressMapper } from './progressForwarder.js';
import { renderToolResult } from './renderResult.js';
import { restoreStrippedArgumentKeys } from '../transport/strippedArgumentKeys.js';

/**
 * Registers one tool per core operation (no-spend already removed the
 * spending ones from `gflow.operations()`). Every call goes through one error
 * funnel: the raw arguments are parsed by core with the operation's zod
 * schema, the operation runs with the request's abort signal, progress is
 * forwarded when the client asked for it, and anything thrown becomes gflow's
 * error envelope.
 */
export function registerOperationTools(
  server: McpServer,
  gflow: GflowLike,
  logger: GflowLogger,
): Map<string, RegisteredTool> {
  const tools = new Map<string, RegisteredTool>();
  for (const op of gflow.operations()) {
    tools.set(op.mcpName, registerOperationTool(server, gflow, op, logger));
  }
  return tools;
}

function registerOperationTool(
  server: McpServer,
  gflow: GflowLike,
  op: Operation,
  logger: GflowLogger,
): RegisteredTool {
  const outputIsObject = jsonSchemaRootType(op.output, 'output') === 'object';
  return server.registerTool(
    op.mcpName,
    {
      title: op.title,
      description: op.description,
      inputSchema: advertisedSchema(op.input, 'input'),
      ...(outputIsObject ? { outputSchema: advertisedSchema(op.output, 'output') } : {}),
      annotations: { title: op.title, ...annotationsFor(op.kind, op.usesBrowser, op.hints) },
      _meta: {
        'dev.gflow/kind': op.kind,
        'dev.gflow/usesBrowser': op.usesBrowser,
        // Runs as a task of the queue (Tasks extension: a CreateTaskResult; else wait=false's task_id).
        ...(op.task ? { 'dev.gflow/taskSupport': op.task } : {}),
      },
    },
    async (args: unknown, ctx: ServerContext) => {
      const profile = profileOf(args);
      try {
        const progress = progressSender(ctx, logger);
        const value = await gflow.runByName(op.name, restoreStrippedArgumentKeys(args ?? {}, ctx.mcpReq._meta), {
          signal: ctx.mcpReq.signal,
          onProgress: progress.send,
        });
        // The last notification (a run's `done`) goes out before the result, not after it.
        await progress.sent();
        gflow.recordUsage(op.mcpName, profile, 'ok');
        return renderToolResult(value);
      } catch (error) {
        gflow.recordUsage(op.mcpName, profile, 'error');
        return errorToolResult(error, op.mcpName, logger, ctx.mcpReq.signal);
      }
    },
  );
}

function profileOf(args: unknown): string | undefined {
  const profile = typeof args === 'object' && args !== null ? (args as { profile?: unknown }).profile : undefined;
  return typeof profile === 'string' ? profile.slice(0, 200) : undefined;
}

/** Sends a call's progress (when the client asked for it); `sent` settles once what was sent is out. */
function progressSender(
  ctx: ServerContext,
  logger: GflowLogger,
): { send: (event: ProgressEvent) => void; sent: () => Promise<void> } {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const map = progressMapper();
  let last: Promise<void> = Promise.resolve();
  const send = (event: ProgressEvent): void => {
    if (progressToken === undefined || ctx.mcpReq.signal.aborted) return;
    const params = map(event);
    if (!params) return;
    last = ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, ...params } })
      .catch((error: unknown) => {
        logger.debug('mcp.progress.send_failed', { error: String(error) });
      });
  };
  return { send, sent: () => last };
}
