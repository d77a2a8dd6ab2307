import { z } from 'zod';
import { llmEndpointOf } from '../promptTools/llmClient.js';
import { expandPrompt, loadPromptTools, toolOptions } from '../promptTools/promptTools.js';
import { CHARACTER_VOICES } from './characterVoices.js';
import { defineOperation } from './operation.js';
import { toolSpec } from '../schemas/params.js';

export const characterVoices = defineOperation({
  name: 'characterVoices',
  mcpName: 'gflow_character_voices',
  title: 'List character voices',
  description:
    'The preset voices for Character TTS (name, description, sample URL). A static lookup: no network, no browser, no profile, no cost.',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({}),
  output: z.looseObject({ status: z.literal('ok'), count: z.number() }),
  handler: async () => ({
    status: 'ok' as const,
    voices: CHARACTER_VOICES.map((v) => ({ ...v })),
    count: CHARACTER_VOICES.length,
  }),
});

export const listTools = defineOperation({
  name: 'listTools',
  mcpName: 'gflow_list_tools',
  title: 'List prompt tools',
  description:
    'Lists the prompt tools accepted by the generate tools\' `tools` parameter (each item {"name": <slug>, "options": {...}}). Each tool lists the option names it takes (`options`; another is refused). Tools rewrite the prompt before it is sent: through the OpenAI-compatible endpoint GFLOW_CLI_LLM_BASE_URL when one is configured, else with their built-in template. Users add their own in <GFLOW_CLI_HOME>/tools/*.toml.',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({
    name: z.string().trim().min(1).optional().describe('Show one tool, with its template and default options.'),
  }),
  output: z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }),
  handler: async (input, { runtime }) => {
    const tools = loadPromptTools(runtime.layout.toolsDir).filter((t) => !input.name || t.name === input.name);
    return {
      tools: tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        category: t.category,
        options: toolOptions(t),
        ...(input.name ? { template: t.template, defaults: t.defaults } : {}),
      })),
    };
  },
});

export const runPromptTools = defineOperation({
  name: 'runPromptTools',
  mcpName: 'gflow_run_prompt_tools',
  title: 'Preview prompt tools',
  description: 'Shows what the given prompt tools make of a prompt, without generating anything.',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({ prompt: z.string().trim().min(1), tools: z.array(toolSpec).min(1).max(8) }),
  output: z.looseObject({ expanded: z.string() }),
  handler: async (input, { runtime, signal }) => {
    const { expanded, via } = await expandPrompt(input.prompt, input.tools, loadPromptTools(runtime.layout.toolsDir), {
      llm: llmEndpointOf(runtime.settings),
      signal,
    });
    return {
      name: input.tools.map((t) => t.name).join('+'),
      original: input.prompt,
      expanded,
      was_expanded: expanded !== input.prompt,
      via,
    };
  },
});
