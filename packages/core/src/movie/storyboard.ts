import { BadParameterError } from '@gflow/errors';
import { VIDEO_ASPECTS } from '@gflow/flow-facts';
import { z } from 'zod';
import { flowUuid } from '../schemas/params.js';

/** The most scenes one storyboard holds, and the most paid steps it may make (clips + extensions). */
export const MAX_MOVIE_SCENES = 20;
export const MAX_MOVIE_STEPS = 30;
/** The most extensions of one scene. */
export const MAX_SCENE_EXTENSIONS = 10;

const prompt = z.string().trim().min(1, 'must not be empty').max(20_000);
const model = z.string().trim().min(1).max(100);

const extension = z.union([prompt, z.object({ prompt, model: model.optional() }).strict()]);

export const storyboardScene = z
  .object({
    title: z.string().trim().min(1).max(200).optional().describe("The scene's name in the timeline."),
    prompt: prompt.optional().describe('What the new clip shows (not with media_id).'),
    media_id: flowUuid('media_id')
      .optional()
      .describe("A finished video of this profile to use as the scene's clip instead of making one (no prompt)."),
    start: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        'Image-to-video: `previous` (the last frame of the scene before), a local image file, or a generated image media id.',
      ),
    characters: z
      .array(z.string().trim().min(1).max(200))
      .min(1)
      .max(10)
      .optional()
      .describe("Reference-to-video with saved characters of the movie's project, by name."),
    model: model.optional().describe("The clip's model (default: the storyboard's, else Flow's)."),
    duration: z.number().int().min(1).max(15).optional().describe('Seconds (Veo 3.1: 4, 6 or 8).'),
    aspect: z.enum(VIDEO_ASPECTS).optional(),
    extend: z
      .array(extension)
      .max(MAX_SCENE_EXTENSIONS)
      .optional()
      .describe('Extensions in a row after the clip: a prompt each, or {prompt, model}.'),
  })
  .strict();

/** A storyboard: the movie's scenes in order, and what they share. */
export const storyboard = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .default('gflow movie')
      .describe("The movie's name (and its new project's)."),
    aspect: z.enum(VIDEO_ASPECTS).default('16:9').describe('Aspect of scenes that set none: 16:9 (default) or 9:16.'),
    model: model.optional().describe('Model of scenes that set none (Veo 3.1 models).'),
    project: flowUuid('project')
      .optional()
      .describe(
        'The Flow project every new clip goes to (needed for characters); else a new one named after the title.',
      ),
    overlap: z
      .number()
      .min(0)
      .max(8)
      .default(1)
      .describe("Seconds cut from a clip's end before its extension, which repeats them (default 1)."),
    scenes: z.array(storyboardScene).min(1).max(MAX_MOVIE_SCENES),
  })
  .strict();
export type Storyboard = z.output<typeof storyboard>;
export type StoryboardScene = z.output<typeof storyboardScene>;

const bad = (parameter: string, detail: string): never => {
  throw new BadParameterError(detail, { extensions: { parameter } });
};

/** The path of a zod issue as the storyboard writes it: `scenes[2].characters`. */
export function fieldOf(issuePath: readonly PropertyKey[]): string {
  return issuePath.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? String(key) : `${out}.${String(key)}`),
    '',
  );
}

/** A storyboard object (MCP, the library, a parsed file), checked: the first problem names its field. */
export function parseStoryboard(value: unknown): Storyboard {
  const result = storyboard.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = fieldOf(issue?.path ?? []);
  return bad(field || 'storyboard', `storyboard ${field || ''}: ${issue?.message ?? 'invalid'}`.replace(' :', ':'));
}
