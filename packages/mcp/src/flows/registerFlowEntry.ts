import {
  ResourceTemplate,
  completable,
  type GetPromptResult,
  type McpServer,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { type OperationKind } from '@gflow/core';
import { KIND_RANK, annotationsFor } from '@gflow/core/surfaces';
import { z } from 'zod';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import type { CompiledPrompt, CompiledResource, CompiledResourceTemplate, CompiledTool } from './compiledFlow.js';
import { matchCompletion } from './completion.js';
import type { JsonSchema } from './jsonSchemaSubset.js';
import { runFlowTool } from './runFlowTool.js';
import { deepFreeze } from '../tools/advertisedSchema.js';

/** A handle the SDK returns for anything registered: removing it sends the list's list_changed. */
export interface RemovableHandle {
  remove(): void;
}

/**
 * Advertises the declared JSON Schema as is; the tool validates it itself (gflow's 400 envelope).
 * One frozen copy per registration serves every tools/list (see advertisedSchema.ts).
 */
function advertisedJsonSchema(schema: JsonSchema): StandardSchemaWithJSON<unknown, unknown> {
  const frozen = deepFreeze(structuredClone(schema) as Record<string, unknown>);
  const json = (): Record<string, unknown> => frozen;
  return {
    '~standard': {
      version: 1,
      vendor: 'gflow-flow',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
}

export function registerFlowTool(
  server: McpServer,
  gflow: GflowLike,
  tool: CompiledTool,
  logger: GflowLogger,
): RemovableHandle {
  const kind = tool.steps
    .map((s) => s.operation.kind)
    .reduce<OperationKind>((a, b) => (KIND_RANK[b] > KIND_RANK[a] ? b : a), 'read');
  const usesBrowser = tool.steps.some((s) => s.operation.usesBrowser);
  return server.registerTool(
    tool.name,
    {
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: advertisedJsonSchema(tool.inputSchema),
      annotations: { ...(tool.title ? { title: tool.title } : {}), ...annotationsFor(kind, usesBrowser) },
      _meta: {
        'dev.gflow/flow': tool.flow,
        'dev.gflow/kind': kind,
        'dev.gflow/steps': tool.steps.map((s) => `${s.name}:${s.operation.name}`),
      },
    },
    (args: unknown, ctx) => runFlowTool(gflow, tool, args, ctx, logger),
  );
}

export function registerFlowResource(server: McpServer, resource: CompiledResource): RemovableHandle {
  return server.registerResource(
    resource.name,
    resource.uri,
    {
      ...(resource.title ? { title: resource.title } : {}),
      ...(resource.description ? { description: resource.description } : {}),
      mimeType: resource.mimeType,
      _meta: { 'dev.gflow/flow': resource.flow },
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.text }] }),
  );
}

export function registerFlowTemplate(server: McpServer, template: CompiledResourceTemplate): RemovableHandle {
  const complete = Object.fromEntries(
    Object.entries(template.completions).map(
      ([variable, values]) => [variable, (typed: string) => matchCompletion(values, typed)] as const,
    ),
  );
  const parameters = Object.entries(template.parameterDescriptions);
  const description = [template.description, ...parameters.map(([name, text]) => `{${name}}: ${text}`)]
    .filter(Boolean)
    .join('\n');
  return server.registerResource(
    template.name,
    new ResourceTemplate(template.uriTemplate, { list: undefined, complete }),
    {
      ...(template.title ? { title: template.title } : {}),
      ...(description ? { description } : {}),
      mimeType: template.mimeType,
      _meta: { 'dev.gflow/flow': template.flow },
    },
    (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: template.mimeType, text: template.content.render({ ...variables }) }],
    }),
  );
}

export function registerFlowPrompt(server: McpServer, prompt: CompiledPrompt): RemovableHandle {
  const meta = {
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    _meta: { 'dev.gflow/flow': prompt.flow },
  };
  if (prompt.arguments.length === 0) return server.registerPrompt(prompt.name, meta, () => renderPrompt(prompt, {}));
  const shape: Record<string, z.ZodType> = {};
  for (const arg of prompt.arguments) {
    const values = arg.completion;
    const base = values ? completable(z.string(), (typed) => matchCompletion(values, typed)) : z.string();
    const field = arg.required ? base : base.optional();
    shape[arg.name] = arg.description ? field.describe(arg.description) : field;
  }
  return server.registerPrompt(prompt.name, { ...meta, argsSchema: z.object(shape) }, (args) =>
    renderPrompt(prompt, args as Record<string, unknown>),
  );
}

/** Renders a prompt's messages over {arguments}, defaults filled in for absent arguments. */
export function renderPrompt(prompt: CompiledPrompt, given: Readonly<Record<string, unknown>>): GetPromptResult {
  const args: Record<string, unknown> = {};
  for (const arg of prompt.arguments) {
    const value = given[arg.name];
    if (value !== undefined && value !== '') args[arg.name] = value;
    else if (arg.default !== undefined) args[arg.name] = arg.default;
  }
  return {
    ...(prompt.description ? { description: prompt.description } : {}),
    messages: prompt.messages.map((message) => ({
      role: message.role,
      content: { type: 'text' as const, text: message.template.render({ arguments: args }) },
    })),
  };
}
