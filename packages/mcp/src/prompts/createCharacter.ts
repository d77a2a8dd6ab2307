import { completable, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { GENDER_SUGGESTIONS } from './suggestions.js';
import { matchCompletion } from '../flows/completion.js';

export const createCharacterArgs = z.object({
  name: z.string().min(1).describe("The character's display name (required); it is how prompts mention them (@Name)."),
  gender: completable(z.enum(GENDER_SUGGESTIONS), (value) => matchCompletion(GENDER_SUGGESTIONS, value))
    .optional()
    .describe('neutral (default), female, male or non-binary; another value is refused.'),
  appearance: z.string().optional().describe('Face, body, age, hair — what must stay the same in every shot.'),
  clothing: z.string().optional().describe('Default outfit.'),
});

export type CreateCharacterArgs = z.output<typeof createCharacterArgs>;

const given = (value: string | undefined, fallback: string): string =>
  value && value.trim() ? value.trim() : fallback;

/** An instruction that has the agent define a consistent character: face, body, wardrobe and voice. */
export function createCharacter(
  args: CreateCharacterArgs,
  options: { readonly noSpend?: boolean } = {},
): GetPromptResult {
  const name = args.name.trim();
  const text = [
    `Define a reusable character named "${name}" for consistent generations with gflow.`,
    `Gender: ${given(args.gender, 'neutral')}`,
    `Appearance: ${given(args.appearance, '(invent distinctive, stable features)')}`,
    `Clothing: ${given(args.clothing, '(choose a signature outfit)')}`,
    '',
    'Write a character sheet with these sections:',
    '- Face: shape, eyes, nose, mouth, skin, hair (colour, length, style), distinguishing marks.',
    '- Body: build, height, posture, age range.',
    '- Wardrobe: the default outfit, colours and materials, one accessory.',
    '- Voice: pitch, pace, accent and tone; pick a preset from gflow_character_voices when one fits.',
    '- Reference sentence: one sentence (under 60 words) to paste into every prompt that shows this character.',
    '',
    ...(options.noSpend === true
      ? [
          `Then, to keep identity across shots, mention @${name} in prompts once the character is saved in the Flow project`,
          '(gflow_character_list gives its entity_id), and paste the reference sentence into each prompt.',
        ]
      : [
          `Then, to keep identity across shots, either mention @${name} in prompts once the character is saved in the Flow project`,
          '(gflow_character_list gives its entity_id; pass it in reference_entities with its name in reference_entity_names),',
          'or generate one neutral reference portrait with gflow_generate_image and pass its media id in reference_images.',
        ]),
  ].join('\n');
  return {
    description: `Character sheet for ${name}`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
