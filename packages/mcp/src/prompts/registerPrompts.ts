import type { McpServer } from '@modelcontextprotocol/server';
import { createCharacter, createCharacterArgs } from './createCharacter.js';
import { expandPrompt, expandPromptArgs } from './expandPrompt.js';

/** The names of the built-in prompts (flows may not reuse them). */
export const BUILTIN_PROMPT_NAMES: readonly string[] = ['expand_prompt', 'create_character'];

/** The built-in prompts, with argument completion. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'expand_prompt',
    {
      title: 'Expand a prompt',
      description:
        "Structure a simple idea into Google's five-component prompt formula (Subject + Action + Location + Composition + Style) before calling a generation tool.",
      argsSchema: expandPromptArgs,
    },
    (args) => expandPrompt(args),
  );
  server.registerPrompt(
    'create_character',
    {
      title: 'Create a character',
      description: 'Define face, body, wardrobe and voice for a subject that must stay consistent across generations.',
      argsSchema: createCharacterArgs,
    },
    (args) => createCharacter(args),
  );
}
