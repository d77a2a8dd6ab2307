import { flag } from '../args/flagSpec.js';
import { defineGroup, defineLeaf } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';
import { renderFields, renderTable } from '../output/table.js';

interface ToolsResult {
  readonly tools: ReadonlyArray<{
    name: string;
    title?: string;
    description?: string;
    category?: string;
    template?: string;
    defaults?: unknown;
  }>;
}

const listTools = defineLeaf({
  name: 'list',
  description: 'List the prompt tools (built-in and <GFLOW_CLI_HOME>/tools/*.toml) usable with -t/--tool.',
  operation: 'listTools',
  examples: ['gflow tools list', 'gflow tools list --json'],
  async run(ctx) {
    const result = (await runOperation(ctx, 'listTools', () => ({}))) as ToolsResult;
    return {
      data: result,
      text: renderTable(
        ['NAME', 'CATEGORY', 'DESCRIPTION'],
        result.tools.map((t) => [t.name, t.category, t.description]),
      ),
    };
  },
});

const showTool = defineLeaf({
  name: 'show',
  description: 'Show one prompt tool with its template and default options.',
  operation: 'listTools',
  positionals: () => [{ key: 'name', name: 'NAME', required: true, description: 'The tool slug.' }],
  examples: ['gflow tools show creative-director'],
  async run(ctx, values) {
    const result = (await runOperation(ctx, 'listTools', () => ({ name: values['name'] }))) as ToolsResult;
    const tool = result.tools[0];
    if (!tool) {
      const { BadParameterError } = await import('@gflow/errors');
      throw new BadParameterError(`No prompt tool named ${JSON.stringify(values['name'])}; see 'gflow tools list'.`, {
        extensions: { parameter: 'name' },
      });
    }
    return { data: tool, text: renderFields(tool) };
  },
});

const runTool = defineLeaf({
  name: 'run',
  description: 'Show what a prompt tool makes of a prompt, without generating anything.',
  operation: 'runPromptTools',
  positionals: () => [
    { key: 'name', name: 'NAME', required: true, description: 'The tool slug (NAME or NAME:key=value,...).' },
    { key: 'prompt', name: 'INPUT', required: true, description: 'The prompt to expand.' },
  ],
  flags: () => [
    flag({
      key: 'style',
      kind: 'string',
      valueHint: 'STYLE',
      description:
        "The tool's style option (same as NAME:style=STYLE), for a tool that has one; a tool's options are in 'gflow tools show NAME', another is refused (exit 2).",
    }),
  ],
  examples: [
    'gflow tools run creative-director "a fox in the snow"',
    'gflow tools run creative-director "harbour at dusk" --style "film noir, hard shadows" --json',
    'gflow tools run "cinematic:grade=bleach bypass" "harbour at dusk"',
  ],
  async run(ctx, values) {
    const { parseToolSpec } = await import('../args/toolSpecArg.js');
    const tool = parseToolSpec(String(values['name']));
    const options = { ...tool.options, ...(typeof values['style'] === 'string' ? { style: values['style'] } : {}) };
    const result = (await runOperation(ctx, 'runPromptTools', () => ({
      prompt: values['prompt'],
      tools: [{ name: tool.name, ...(Object.keys(options).length ? { options } : {}) }],
    }))) as { expanded: string };
    return { data: result, text: result.expanded };
  },
});

export const toolsCommand = defineGroup({
  name: 'tools',
  description: 'Prompt tools: list, show, and preview their rewrite of a prompt.',
  children: { list: listTools, show: showTool, run: runTool },
});
