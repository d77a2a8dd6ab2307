import { BadParameterError, ConfigurationError } from '@gflow/errors';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { type ProgressEvent, isFailureStatus } from '@gflow/core';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { errorToolResult } from '../tools/errorEnvelope.js';
import { progressMapper } from '../tools/progressForwarder.js';
import { renderToolResult } from '../tools/renderResult.js';
import { restoreStrippedArgumentKeys } from '../transport/strippedArgumentKeys.js';
import type { CompiledTool } from './compiledFlow.js';
import { applyDefaults, validateJson } from './jsonSchemaSubset.js';
import { renderTemplateValue } from './templateValue.js';

/**
 * A step result stops the pipeline when its generation did not produce its media: a failure
 * status (core's FAILURE_STATUSES), or `pending` anywhere but the last step (nothing to chain yet).
 */
function stops(status: string | undefined, isLast: boolean): boolean {
  return isFailureStatus(status) || (status === 'pending' && !isLast);
}

/**
 * Runs a flow tool: validates the arguments against its input_schema (with
 * defaults), then each step in order through `gflow.run` — the path of the
 * built-in tools, so no-spend and the rate limiter apply — rendering the
 * step's arguments over `{arguments, steps}`. A step that throws, or returns
 * a failed/pending generation, ends the call with that step's name in the
 * envelope. The output is the templated `result`, else the last step's.
 */
export async function runFlowTool(
  gflow: GflowLike,
  tool: CompiledTool,
  rawArgs: unknown,
  ctx: ServerContext,
  logger: GflowLogger,
): Promise<CallToolResult> {
  const signal = ctx.mcpReq.signal;
  const given = restoreStrippedArgumentKeys(rawArgs ?? {}, ctx.mcpReq._meta);
  const invalid = validateJson(tool.inputSchema, given);
  if (invalid) {
    const parameter = invalid.split(':')[0] ?? 'input';
    return errorToolResult(new BadParameterError(invalid, { extensions: { parameter } }), tool.name, logger, signal);
  }
  const args = applyDefaults(tool.inputSchema, rawArgs ?? {}) as Record<string, unknown>;
  const profile = typeof args['profile'] === 'string' ? args['profile'].slice(0, 200) : undefined;
  const steps: Record<string, unknown> = {};
  const progress = pipelineProgress(ctx, tool.steps.length, logger);
  let last: unknown = undefined;
  for (const [index, step] of tool.steps.entries()) {
    let stepArgs: unknown;
    try {
      stepArgs = renderTemplateValue(step.arguments, { arguments: args, steps });
    } catch (error) {
      const failure = new ConfigurationError(
        `Flow ${tool.flow}, tool ${tool.name}, step ${step.name}: a template failed to render (${(error as Error).message}).`,
        { cause: error },
      );
      return withStep(errorToolResult(failure, tool.name, logger, signal), tool, step.name);
    }
    try {
      last = await gflow.runByName(step.operation.name, stepArgs, { signal, onProgress: progress(index, step.name) });
    } catch (error) {
      gflow.recordUsage(tool.name, profile, 'error');
      return withStep(errorToolResult(error, tool.name, logger, signal), tool, step.name);
    }
    steps[step.name] = last;
    const status = statusOf(last);
    const isLast = index === tool.steps.length - 1;
    if (stops(status, isLast)) {
      gflow.recordUsage(tool.name, profile, 'error');
      const stopped = renderToolResult(last);
      return withStep({ ...stopped, isError: true }, tool, step.name);
    }
  }
  const output = tool.result ? renderTemplateValue(tool.result, { arguments: args, steps }) : last;
  gflow.recordUsage(tool.name, profile, 'ok');
  return renderToolResult(output);
}

function statusOf(value: unknown): string | undefined {
  const status = typeof value === 'object' && value !== null ? (value as { status?: unknown }).status : undefined;
  return typeof status === 'string' ? status : undefined;
}

/** Adds the flow and the failing step's name to a failed result (structured content and text). */
function withStep(result: CallToolResult, tool: CompiledTool, step: string): CallToolResult {
  const structured = { ...(result.structuredContent ?? {}), flow: tool.flow, step };
  return {
    ...result,
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...result.content.slice(1)],
  };
}

/**
 * Progress across the pipeline: step i of n owns the range [i, i+1) of the
 * phases scale, so values strictly increase from one step to the next.
 */
function pipelineProgress(
  ctx: ServerContext,
  stepCount: number,
  logger: GflowLogger,
): (index: number, step: string) => (event: ProgressEvent) => void {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return (index, step) => {
    const map = progressMapper();
    return (event) => {
      if (progressToken === undefined || ctx.mcpReq.signal.aborted) return;
      const params = map(event);
      if (!params) return;
      const progress = Math.round((index * params.total + params.progress) * 100) / 100;
      const notification = {
        progressToken,
        progress,
        total: stepCount * params.total,
        message: `${step}: ${params.message}`,
      };
      ctx.mcpReq.notify({ method: 'notifications/progress', params: notification }).catch((error: unknown) => {
        logger.debug('mcp.progress.send_failed', { error: String(error) });
      });
    };
  };
}
