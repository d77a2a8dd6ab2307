import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { parse } from 'smol-toml';
import { type LlmEndpoint, chatComplete } from './llmClient.js';

/**
 * Prompt tools: named rewrites of a prompt applied before it is sent. With an
 * OpenAI-compatible endpoint configured (GFLOW_CLI_LLM_BASE_URL) a tool asks
 * the model, following its `system` instruction; without one it applies its
 * deterministic `template`. Built-ins ship here; users add their own as
 * `<home>/tools/<name>.toml` with `title`, `description`, `template` (where
 * `{prompt}` is the prompt and `{option}` an option value), optional `system`
 * and `[defaults]`.
 */
export interface PromptTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly category: 'style' | 'structure' | 'camera' | 'user';
  readonly template: string;
  /** The instruction given to the model when an LLM endpoint is configured ({option} placeholders allowed). */
  readonly system: string;
  /** Default option values; a call may override them. */
  readonly defaults: Readonly<Record<string, string>>;
}

export const BUILTIN_PROMPT_TOOLS: readonly PromptTool[] = [
  {
    name: 'creative-director',
    system:
      "You are a film director writing prompts for Google's Veo and Nano Banana. Rewrite the user's idea as one vivid prompt using the five-part formula: subject, action, location ({location} if it fits), composition ({composition}) and style ({style}). Answer with the prompt only.",
    title: 'Creative director',
    description:
      "Restates the idea in Google's five-part formula (subject, action, location, composition, style) so Flow gets a complete shot description.",
    category: 'structure',
    template: 'Subject and action: {prompt}. Location: {location}. Composition: {composition}. Style: {style}.',
    defaults: {
      location: 'a setting that suits the subject',
      composition: 'medium shot, subject in sharp focus, rule of thirds',
      style: 'cinematic, natural light, rich detail',
    },
  },
  {
    name: 'cinematic',
    system:
      'Rewrite the prompt for a cinematic film look: lens, depth of field, a {grade} colour grade, film grain. Keep the subject and action. Answer with the prompt only.',
    title: 'Cinematic look',
    description: 'Adds a film look: anamorphic lens, shallow depth of field, graded colour.',
    category: 'style',
    template: '{prompt}. Shot on 35mm anamorphic lens, shallow depth of field, {grade} colour grade, film grain.',
    defaults: { grade: 'teal and orange' },
  },
  {
    name: 'photoreal',
    system:
      'Rewrite the prompt so it describes a photorealistic photograph ({lens} lens, natural light, high dynamic range). Keep the subject. Answer with the prompt only.',
    title: 'Photorealistic',
    description: 'Asks for a photograph rather than an illustration.',
    category: 'style',
    template: 'A photorealistic photograph of {prompt}, {lens} lens, natural lighting, high dynamic range.',
    defaults: { lens: '50mm' },
  },
  {
    name: 'storyboard',
    system:
      'Rewrite the prompt as a clear storyboard frame ({shot}): readable staging and silhouettes, consistent lighting. Answer with the prompt only.',
    title: 'Storyboard frame',
    description: 'A clean storyboard panel, useful as a start frame for image-to-video.',
    category: 'structure',
    template: 'Storyboard frame, {shot}: {prompt}. Clear staging, readable silhouettes, consistent lighting.',
    defaults: { shot: 'wide establishing shot' },
  },
  {
    name: 'camera-move',
    system:
      'Add one explicit, smooth camera movement ({move}) to this video prompt. Keep everything else. Answer with the prompt only.',
    title: 'Camera move',
    description: 'Adds an explicit camera movement for video.',
    category: 'camera',
    template: '{prompt}. Camera: {move}, smooth and steady.',
    defaults: { move: 'slow dolly in' },
  },
];

const TOOL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Built-ins plus the user's `<toolsDir>/*.toml` (a user tool may not shadow a built-in). */
export function loadPromptTools(toolsDir: string | undefined): PromptTool[] {
  const tools = [...BUILTIN_PROMPT_TOOLS];
  if (!toolsDir || !fs.existsSync(toolsDir)) return tools;
  for (const file of fs
    .readdirSync(toolsDir)
    .filter((f) => f.endsWith('.toml'))
    .sort()) {
    const name = file.slice(0, -'.toml'.length);
    if (!TOOL_NAME.test(name) || tools.some((t) => t.name === name)) continue;
    let data: Record<string, unknown>;
    try {
      data = parse(fs.readFileSync(path.join(toolsDir, file), 'utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const template = data['template'];
    if (typeof template !== 'string' || !template.includes('{prompt}')) continue;
    const defaults =
      typeof data['defaults'] === 'object' && data['defaults'] ? (data['defaults'] as Record<string, unknown>) : {};
    tools.push({
      name,
      title: typeof data['title'] === 'string' ? data['title'] : name,
      description: typeof data['description'] === 'string' ? data['description'] : '',
      category: 'user',
      template,
      system:
        typeof data['system'] === 'string'
          ? data['system']
          : `Rewrite the prompt in the spirit of this template: ${template}. Answer with the prompt only.`,
      defaults: Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, String(v)])),
    });
  }
  return tools;
}

export interface ToolCall {
  readonly name: string;
  readonly options?: Readonly<Record<string, string | number | boolean>> | undefined;
}

export interface ExpandOptions {
  /** The OpenAI-compatible endpoint; absent: each tool applies its template. */
  readonly llm?: LlmEndpoint | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface Expansion {
  readonly expanded: string;
  readonly applied: string[];
  readonly via: 'llm' | 'template' | 'none';
}

const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/gi;

const fill = (text: string, values: Readonly<Record<string, string>>, prompt: string): string =>
  text.replace(PLACEHOLDER, (match, key: string) => (key === 'prompt' ? prompt : (values[key] ?? match)));

/** The options a tool takes, sorted: its defaults and the `{option}` placeholders of its template and instruction. */
export function toolOptions(tool: PromptTool): string[] {
  const names = new Set(Object.keys(tool.defaults));
  for (const text of [tool.template, tool.system])
    for (const [, key] of text.matchAll(PLACEHOLDER)) if (key && key !== 'prompt') names.add(key);
  return [...names].sort();
}

/**
 * Applies the tools in order, before anything is queued or spent. Unknown
 * tools are refused as a whole (`invalid_tools`), and so is an option a tool
 * does not take (`invalid_options`, with the tool's `known_options`).
 */
export async function expandPrompt(
  prompt: string,
  calls: readonly ToolCall[],
  tools: readonly PromptTool[],
  options: ExpandOptions = {},
): Promise<Expansion> {
  const unknown = calls.filter((c) => !tools.some((t) => t.name === c.name)).map((c) => c.name);
  if (unknown.length) {
    throw new BadParameterError(
      `Unknown prompt tool(s): ${unknown.join(', ')}. Known: ${tools.map((t) => t.name).join(', ')}.`,
      {
        extensions: { parameter: 'tools', invalid_tools: unknown },
      },
    );
  }
  for (const call of calls) {
    const tool = tools.find((t) => t.name === call.name) as PromptTool;
    const known = toolOptions(tool);
    const invalid = Object.keys(call.options ?? {}).filter((key) => !known.includes(key));
    if (invalid.length) {
      const names = invalid.map((key) => JSON.stringify(key)).join(', ');
      throw new BadParameterError(
        `Prompt tool ${tool.name} has no option${invalid.length > 1 ? 's' : ''} ${names}; ${known.length ? `its options: ${known.join(', ')}` : 'it takes none'}.`,
        { extensions: { parameter: 'tools', tool: tool.name, invalid_options: invalid, known_options: known } },
      );
    }
  }
  let expanded = prompt;
  for (const call of calls) {
    const tool = tools.find((t) => t.name === call.name) as PromptTool;
    const values: Record<string, string> = {
      ...tool.defaults,
      ...Object.fromEntries(Object.entries(call.options ?? {}).map(([k, v]) => [k, String(v)])),
    };
    const current = expanded.replace(/[.\s]+$/, '');
    expanded = options.llm
      ? await chatComplete(options.llm, fill(tool.system, values, current), current, options.signal)
      : fill(tool.template, values, current);
  }
  return {
    expanded,
    applied: calls.map((c) => c.name),
    via: calls.length === 0 ? 'none' : options.llm ? 'llm' : 'template',
  };
}
