import { createHash } from 'node:crypto';
import path from 'node:path';
import { UriTemplate } from '@modelcontextprotocol/server';
import type { Operation } from '@gflow/core';
import type {
  CompiledFlow,
  CompiledPrompt,
  CompiledResource,
  CompiledResourceTemplate,
  CompiledStep,
  CompiledTool,
} from './compiledFlow.js';
import { loadCompletionValues } from './completion.js';
import { readFlowResourceFile, resolveFlowFile } from './flowFiles.js';
import type { FlowProblem } from './flowProblem.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from './flowSchema.js';
import { checkSchema, declaredProperties, type JsonSchema } from './jsonSchemaSubset.js';
import type { ParsedFlow, YamlPath } from './parseFlowFile.js';
import { compileTemplate, type CompiledTemplate, type TemplateScope } from './templates.js';
import { compileTemplateValue, type TemplateIssue } from './templateValue.js';

export interface CompileEnvironment {
  /** The operation a step names (core name or MCP name), if this server offers it. */
  operation(name: string): Operation | undefined;
  /** True when the name is a spending operation switched off by no-spend. */
  disabledByNoSpend(name: string): boolean;
  /** Scheme of generated resource URIs (default gflow). */
  readonly uriScheme: string;
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} };

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.sql': 'application/sql',
  '.xml': 'application/xml',
};

/**
 * Compiles a parsed flow: resolves step operations, parses and checks every
 * template against what it may read, validates input schemas, reads resource
 * and completion files. Errors reject the flow; warnings drop one entry.
 */
export function compileFlow(
  parsed: ParsedFlow,
  source: string,
  env: CompileEnvironment,
): { flow?: CompiledFlow; problems: FlowProblem[] } {
  const problems: FlowProblem[] = [];
  const fail = (at: YamlPath, reason: string, severity: FlowProblem['severity'] = 'error'): void => {
    problems.push({ file: parsed.file, line: parsed.lineOf(at), reason, severity });
  };
  const tools: CompiledTool[] = [];
  const resources: CompiledResource[] = [];
  const templates: CompiledResourceTemplate[] = [];
  const prompts: CompiledPrompt[] = [];
  const base = (
    at: YamlPath,
    def: { name: string; title?: string | undefined; description?: string | undefined },
    extra: unknown,
  ) => ({
    flow: parsed.name,
    file: parsed.file,
    line: parsed.lineOf(at),
    name: def.name,
    ...(def.title !== undefined ? { title: def.title } : {}),
    ...(def.description !== undefined ? { description: def.description } : {}),
    signature: JSON.stringify([def, extra]),
  });

  for (const entry of parsed.entries) {
    try {
      if (entry.kind === 'mcp_tool') {
        const tool = compileTool(entry.def, entry.path, env, fail);
        if (tool) tools.push({ ...base(entry.path, entry.def, null), ...tool, description: entry.def.description });
      } else if (entry.kind === 'mcp_resource') {
        const compiled = compileResource(entry.def, entry.path, parsed, env, fail);
        if (compiled?.kind === 'resource')
          resources.push({ ...base(entry.path, entry.def, [compiled.uri, compiled.text]), ...compiled.value });
        if (compiled?.kind === 'template')
          templates.push({
            ...base(entry.path, entry.def, [compiled.value.content.source, compiled.value.completions]),
            ...compiled.value,
          });
      } else {
        const prompt = compilePrompt(entry.def, entry.path, parsed, fail);
        if (prompt) prompts.push({ ...base(entry.path, entry.def, prompt.arguments), ...prompt });
      }
    } catch (error) {
      fail(entry.path, (error as Error).message);
    }
  }
  if (problems.some((p) => p.severity === 'error')) return { problems };
  const sourceHash = createHash('sha256').update(source).digest('hex');
  return { flow: { file: parsed.file, name: parsed.name, sourceHash, tools, resources, templates, prompts }, problems };
}

type Fail = (at: YamlPath, reason: string, severity?: FlowProblem['severity']) => void;

function reportIssues(issues: readonly TemplateIssue[], fail: Fail): void {
  for (const issue of issues) fail(issue.path, issue.reason);
}

function compileTool(
  def: ToolEntry,
  at: YamlPath,
  env: CompileEnvironment,
  fail: Fail,
): Pick<CompiledTool, 'inputSchema' | 'steps' | 'result'> | undefined {
  const inputSchema = (def.input_schema as JsonSchema | undefined) ?? EMPTY_OBJECT_SCHEMA;
  const schemaIssues = checkSchema(inputSchema);
  if (inputSchema['type'] !== 'object')
    schemaIssues.push({ path: ['type'], reason: 'input_schema must be an object schema (type: object)' });
  for (const issue of schemaIssues) fail([...at, 'input_schema', ...issue.path], `input_schema: ${issue.reason}`);
  const argumentNames = declaredProperties(inputSchema);
  const offSteps = def.steps
    .map((step, index) => ({ step, index }))
    .filter(({ step }) => !env.operation(step.operation) && env.disabledByNoSpend(step.operation));
  const firstOff = offSteps[0];
  if (firstOff) {
    const stepName = firstOff.step.name ?? `step${firstOff.index + 1}`;
    fail(
      [...at, 'steps', firstOff.index, 'operation'],
      `tool "${def.name}" is not registered: step "${stepName}" uses ${firstOff.step.operation}, which no-spend mode switches off`,
      'warning',
    );
    return undefined;
  }
  const steps: CompiledStep[] = [];
  const issues: TemplateIssue[] = [];
  def.steps.forEach((step, index) => {
    const stepAt = [...at, 'steps', index];
    const name = step.name ?? `step${index + 1}`;
    if (steps.some((s) => s.name === name)) fail([...stepAt, 'name'], `duplicate step name "${name}"`);
    const operation = env.operation(step.operation);
    if (!operation) {
      fail(
        [...stepAt, 'operation'],
        `unknown operation "${step.operation}" (see the MCP tool list: core names such as listModels or tool names such as gflow_list_models)`,
      );
      return;
    }
    const scope: TemplateScope = new Map([
      ['arguments', argumentNames],
      ['steps', new Set(steps.map((s) => s.name))],
    ]);
    steps.push({
      name,
      operation,
      arguments: compileTemplateValue(step.arguments ?? {}, scope, [...stepAt, 'arguments'], issues),
    });
  });
  const resultScope: TemplateScope = new Map([
    ['arguments', argumentNames],
    ['steps', new Set(steps.map((s) => s.name))],
  ]);
  const result =
    def.result === undefined ? undefined : compileTemplateValue(def.result, resultScope, [...at, 'result'], issues);
  reportIssues(issues, fail);
  return { inputSchema, steps, result };
}

type CompiledResourceParts =
  | { kind: 'resource'; uri: string; text: string; value: Pick<CompiledResource, 'uri' | 'mimeType' | 'text'> }
  | {
      kind: 'template';
      value: Pick<
        CompiledResourceTemplate,
        'uriTemplate' | 'mimeType' | 'content' | 'completions' | 'parameterDescriptions'
      >;
    };

function compileResource(
  def: ResourceEntry,
  at: YamlPath,
  parsed: ParsedFlow,
  env: CompileEnvironment,
  fail: Fail,
): CompiledResourceParts | undefined {
  const contentFile = typeof def.content === 'string' ? undefined : resolveFlowFile(parsed.file, def.content.resource);
  const readContent = (): string | undefined => {
    if (!contentFile) return def.content as string;
    try {
      return readFlowResourceFile(parsed.file, (def.content as { resource: string }).resource);
    } catch (error) {
      fail(
        [...at, 'content', 'resource'],
        `cannot read ${contentFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
      return undefined;
    }
  };
  const mimeType =
    def.mime_type ??
    (contentFile ? MIME_BY_EXTENSION[path.extname(contentFile).toLowerCase()] : undefined) ??
    'text/plain';
  if (!def.uri_template) {
    const uri = def.uri ?? `${env.uriScheme}://${parsed.name}/${def.name}`;
    if (!URL.canParse(uri)) fail([...at, def.uri ? 'uri' : 'name'], `"${uri}" is not a valid URI`);
    const text = readContent();
    return text === undefined ? undefined : { kind: 'resource', uri, text, value: { uri, mimeType, text } };
  }
  let variables: string[];
  try {
    variables = new UriTemplate(def.uri_template).variableNames;
  } catch (error) {
    fail([...at, 'uri_template'], `invalid uri_template: ${(error as Error).message}`);
    return undefined;
  }
  if (variables.length === 0)
    fail([...at, 'uri_template'], 'uri_template has no {placeholder}; use uri for a fixed resource');
  const completions: Record<string, readonly string[]> = {};
  const parameterDescriptions: Record<string, string> = {};
  (def.parameters ?? []).forEach((parameter, index) => {
    const paramAt = [...at, 'parameters', index];
    if (!variables.includes(parameter.name))
      fail(
        [...paramAt, 'name'],
        `parameter "${parameter.name}" is not a placeholder of ${def.uri_template} (${variables.join(', ')})`,
      );
    if (parameter.description) parameterDescriptions[parameter.name] = parameter.description;
    if (parameter.completion)
      completions[parameter.name] = loadCompletion(parameter.completion, parsed.file, [...paramAt, 'completion'], fail);
  });
  const text = readContent();
  if (text === undefined) return undefined;
  let content: CompiledTemplate;
  try {
    content = compileTemplate(text, new Map(variables.map((v) => [v, 'any'] as const)));
  } catch (error) {
    fail([...at, 'content'], (error as Error).message);
    return undefined;
  }
  return {
    kind: 'template',
    value: { uriTemplate: def.uri_template, mimeType, content, completions, parameterDescriptions },
  };
}

function compilePrompt(
  def: PromptEntry,
  at: YamlPath,
  parsed: ParsedFlow,
  fail: Fail,
): Pick<CompiledPrompt, 'arguments' | 'messages'> | undefined {
  const args = (def.arguments ?? []).map((arg, index) => {
    const argAt = [...at, 'arguments', index];
    if (def.arguments?.findIndex((other) => other.name === arg.name) !== index)
      fail([...argAt, 'name'], `duplicate argument "${arg.name}"`);
    return {
      name: arg.name,
      description: arg.description,
      required: arg.required === true,
      default: arg.default,
      completion: arg.completion
        ? loadCompletion(arg.completion, parsed.file, [...argAt, 'completion'], fail)
        : undefined,
    };
  });
  const scope: TemplateScope = new Map([['arguments', new Set(args.map((a) => a.name))]]);
  const sources = def.messages ?? [{ role: 'user' as const, content: def.template ?? '' }];
  const messages: Array<CompiledPrompt['messages'][number]> = [];
  sources.forEach((message, index) => {
    try {
      messages.push({ role: message.role, template: compileTemplate(message.content, scope) });
    } catch (error) {
      fail(def.messages ? [...at, 'messages', index, 'content'] : [...at, 'template'], (error as Error).message);
    }
  });
  return messages.length === sources.length ? { arguments: args, messages } : undefined;
}

function loadCompletion(
  source: Parameters<typeof loadCompletionValues>[0],
  flowFile: string,
  at: YamlPath,
  fail: Fail,
): string[] {
  try {
    return loadCompletionValues(source, flowFile);
  } catch (error) {
    fail(
      'resource' in source ? [...at, 'resource'] : at,
      `completion: ${(error as NodeJS.ErrnoException).code ? `cannot read the file (${(error as NodeJS.ErrnoException).code})` : (error as Error).message}`,
    );
    return [];
  }
}
