import type { McpServer } from '@modelcontextprotocol/server';
import { createCharacter, createCharacterArgs } from './createCharacter.js';
import { expandPrompt, expandPromptArgs } from './expandPrompt.js';

/** The names of the built-in prompts (flows may not reuse them). */
export const BUILTIN_PROMPT_NAMES: readonly string[] = ['expand_prompt', 'create_character'];

/**
 * The built-in prompts, with argument completion. In no-spend mode (no generate tools are
 * registered) their texts do not send the agent to tools it does not have.
 */
export function registerPrompts(server: McpServer, options: { readonly noSpend: boolean }): void {
  server.registerPrompt(
    'expand_prompt',
    {
      title: 'Expand a prompt',
      description: options.noSpend
        ? "Structure a simple idea into Google's five-component prompt formula (Subject + Action + Location + Composition + Style)."
        : "Structure a simple idea into Google's five-component prompt formula (Subject + Action + Location + Composition + Style) before calling a generation tool.",
      argsSchema: expandPromptArgs,
    },
    (args) => expandPrompt(args, options),
  );
  server.registerPrompt(
    'create_character',
    {
      title: 'Create a character',
      description: 'Define face, body, wardrobe and voice for a subject that must stay consistent across generations.',
      argsSchema: createCharacterArgs,
    },
    (args) => createCharacter(args, options),
  );
}
