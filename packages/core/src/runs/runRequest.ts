import { QueueSchemaError } from '@gflow/errors';
import { z } from 'zod';
import { generateImageInput, generateVideoInput } from '../generation/index.js';
import { isRunPayload } from './runPayload.js';

/**
 * A run of many paid steps as its task row carries it: the steps' inputs as the operation parsed
 * them (each step's own request is made when the step starts: a chain's frame, a batch's project
 * come from the steps before), and what the run shares. The runner parses a row with this schema
 * as it parses user input; another `schema_version` is refused and never run.
 */
export const RUN_REQUEST_VERSION = 2;

const jitter = z.object({ min_ms: z.number().int().nonnegative(), max_ms: z.number().int().nonnegative() }).strict();

const common = {
  schema_version: z.literal(RUN_REQUEST_VERSION),
  kind: z.literal('run'),
  task_id: z.string().regex(/^[\w-]{1,128}$/),
  /** The command or tool that asked (`image batch`, `gflow_generate_chain`). */
  command: z.string().min(1),
  surface: z.enum(['cli', 'mcp', 'http', 'library']),
  profile: z.string().min(1),
  /** The pause between submits. */
  jitter,
  /** The Flow project every step goes to; null: the one the first step makes. */
  project: z.string().min(1).nullable(),
};

export const batchRunRequest = z
  .object({
    ...common,
    run: z.literal('batch'),
    /** One image generation per item, as the operation parsed it. */
    items: z.array(generateImageInput).min(1),
    fail_fast: z.boolean(),
  })
  .strict();

export const chainRunRequest = z
  .object({
    ...common,
    run: z.literal('chain'),
    /** Link 1 text-to-video, each later link image-to-video from the last frame of the clip before. */
    links: z.array(generateVideoInput).min(1),
    /** Where the clips and frames go. */
    out_dir: z.string().min(1),
    /** `--stitch`: the links joined into this .mp4 (its timeline beside it) once every link is done. */
    output: z.string().min(1).nullable().optional(),
    overwrite: z.boolean().optional(),
  })
  .strict();

/** An extension of a story's clip: what happens next, and the extend entry's model. */
const storyExtension = z.object({ prompt: z.string().min(1), model: z.string().min(1).optional() }).strict();

/** Where a scene's clip comes from: a new generation (its checked input), or a finished video of this profile. */
const storyClip = z.discriminatedUnion('from', [
  z
    .object({
      from: z.literal('generate'),
      input: generateVideoInput,
      /** `previous`: image-to-video from the last frame of the scene before (taken when this step starts). */
      start: z.literal('previous').nullable(),
    })
    .strict(),
  z
    .object({
      from: z.literal('media'),
      media_id: z.string().min(1),
      /** Its verified local copy when the run was made (stitched, and the next scene's frame is taken from it). */
      file: z.string().min(1),
      seconds: z.number().positive().nullable(),
    })
    .strict(),
]);

export const storyScene = z
  .object({
    clip: storyClip,
    /** Extensions in a row: the first continues the scene's clip, each later one the extension before. */
    extends: z.array(storyExtension),
    /** The storyboard's words for the scene (the timeline's clip names), if any. */
    title: z.string().nullable(),
  })
  .strict();

export const storyRunRequest = z
  .object({
    ...common,
    run: z.literal('story'),
    title: z.string().min(1),
    scenes: z.array(storyScene).min(1),
    /** Where the clips, frames, movie and timeline go. */
    out_dir: z.string().min(1),
    /** The stitched movie (an .mp4; its timeline beside it), or null: clips only. */
    output: z.string().min(1).nullable(),
    overwrite: z.boolean(),
    /** Seconds cut from a clip's end before its extension (the extension repeats them, flow-captures §10). */
    overlap: z.number().min(0).max(8),
  })
  .strict();

export const runRequest = z.discriminatedUnion('run', [batchRunRequest, chainRunRequest, storyRunRequest]);
export type RunRequest = z.output<typeof runRequest>;
export type BatchRunRequest = z.output<typeof batchRunRequest>;
export type ChainRunRequest = z.output<typeof chainRunRequest>;
export type StoryRunRequest = z.output<typeof storyRunRequest>;
export type StoryScene = StoryRunRequest['scenes'][number];

export { isRunPayload } from './runPayload.js';

/**
 * The paid steps of a story in order: each scene's new clip (a scene over an existing video has
 * none), then its extensions. A step's position in this list is its `step_index`.
 */
export interface StoryStep {
  readonly scene: number;
  readonly kind: 'clip' | 'extend';
  /** For an extension: its place in the scene's row of extensions. */
  readonly extension: number;
}

export function storySteps(scenes: readonly Pick<StoryScene, 'clip' | 'extends'>[]): StoryStep[] {
  return scenes.flatMap((scene, index) => [
    ...(scene.clip.from === 'generate' ? [{ scene: index, kind: 'clip' as const, extension: -1 }] : []),
    ...scene.extends.map((_, extension) => ({ scene: index, kind: 'extend' as const, extension })),
  ]);
}

/** How many steps a parsed run has. */
export function stepCount(request: RunRequest): number {
  if (request.run === 'batch') return request.items.length;
  return request.run === 'chain' ? request.links.length : storySteps(request.scenes).length;
}

/** How many steps the run in a task row has (a batch's items, a chain's links, a story's clips); undefined for a row that is not a run. */
export function stepCountOf(payload: unknown): number | undefined {
  if (!isRunPayload(payload)) return undefined;
  const { items, links, scenes } = payload as { items?: unknown; links?: unknown; scenes?: unknown };
  if (Array.isArray(scenes)) return storySteps(scenes as StoryScene[]).length;
  const steps = Array.isArray(items) ? items : links;
  return Array.isArray(steps) ? steps.length : undefined;
}

/** Reads a run row like user input, or refuses it (never run). */
export function parseRunRequest(payload: unknown, taskId: string): RunRequest {
  const version = (payload as { schema_version?: unknown } | null)?.schema_version;
  const parsed = version === RUN_REQUEST_VERSION ? runRequest.safeParse(payload) : undefined;
  if (parsed?.success) return parsed.data;
  const issue = parsed?.error.issues[0];
  const why =
    parsed === undefined
      ? `it was written as schema_version ${String(version)}; this gflow runs ${RUN_REQUEST_VERSION} only`
      : `${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}`;
  throw new QueueSchemaError(`Run ${taskId} cannot be read (${why}). It was not run.`, {
    extensions: { task_id: taskId },
    remediationHint: 'Start it again with this gflow (nothing was sent for the steps it did not reach).',
  });
}
