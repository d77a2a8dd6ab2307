import { completable, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CAMERA_SUGGESTIONS, LIGHTING_SUGGESTIONS, SETTING_SUGGESTIONS } from './suggestions.js';
import { matchCompletion } from '../flows/completion.js';

export const expandPromptArgs = z.object({
  subject: z.string().min(1).describe('Who or what the shot is about (required).'),
  action: z.string().optional().describe('What the subject does.'),
  setting: completable(z.string(), (value) => matchCompletion(SETTING_SUGGESTIONS, value))
    .optional()
    .describe('Where it happens.'),
  camera: completable(z.string(), (value) => matchCompletion(CAMERA_SUGGESTIONS, value))
    .optional()
    .describe('Framing, lens and camera movement.'),
  lighting: completable(z.string(), (value) => matchCompletion(LIGHTING_SUGGESTIONS, value))
    .optional()
    .describe('Light and mood.'),
});

export type ExpandPromptArgs = z.output<typeof expandPromptArgs>;

const given = (value: string | undefined, fallback: string): string =>
  value && value.trim() ? value.trim() : fallback;

/**
 * An instruction that has the agent write one generation prompt with Google's
 * five components: Subject + Action + Location + Composition + Style.
 */
export function expandPrompt(args: ExpandPromptArgs, options: { readonly noSpend?: boolean } = {}): GetPromptResult {
  const text = [
    options.noSpend === true
      ? 'Expand the idea below into one production-ready prompt for Google Flow (Veo video, Nano Banana images).'
      : 'Expand the idea below into one production-ready prompt for gflow_generate_image or gflow_generate_video.',
    "Use Google's five-component formula, in this order, as flowing prose (no headings, no lists):",
    '1. Subject — who or what, with concrete visual detail.',
    '2. Action — what the subject is doing.',
    '3. Location — where and when.',
    '4. Composition — framing, lens and camera movement.',
    '5. Style — lighting, mood, palette and medium.',
    '',
    `Subject: ${args.subject.trim()}`,
    `Action: ${given(args.action, '(choose one that suits the subject)')}`,
    `Location: ${given(args.setting, '(choose a fitting location)')}`,
    `Composition: ${given(args.camera, '(choose framing and camera movement)')}`,
    `Style: ${given(args.lighting, '(choose lighting and mood)')}`,
    '',
    'Keep what was given verbatim in meaning, fill only what is missing, stay under 120 words, and reply with the prompt only.',
    'For a video, describe one continuous shot; put spoken lines in quotes and name the sound if it matters.',
  ].join('\n');
  return {
    description: 'Five-component prompt (Subject + Action + Location + Composition + Style)',
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
