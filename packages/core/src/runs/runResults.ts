/**
 * What a run answers (a batch, a chain), as schemas of their own: the public types of the run
 * operations read only these, never the run machinery behind them (the catalog, the sessions).
 */
import { z } from 'zod';
import { generationResult } from '../generation/schemas.js';

/** A prompt of a batch whose step was not queued yet (no task row, so no task id): pending, with its prompt. */
const unqueuedItem = z.looseObject({ status: z.literal('pending'), params: z.looseObject({ prompt: z.string() }) });

/** What `generateBatch` returns: its status, the Flow project, and each item's own result (files, media, error). */
export const generateBatchResult = z.looseObject({
  /** pending (not run yet), running, or how it ended: completed, estimated (a dry run: every prompt quoted, nothing submitted), partial (some prompts made), failed, cancelled, indeterminate (stopped after a submit: credits may have been spent). */
  status: z.enum(['pending', 'running', 'completed', 'estimated', 'partial', 'failed', 'cancelled', 'indeterminate']),
  /** The run's task id: `gflow task show|wait|cancel` and tasks/get follow it; resume_from continues it. */
  task_id: z.string().optional(),
  flow_project_id: z.string().nullable(),
  /** One generation envelope per prompt, in order; `skipped` after a stop (fail_fast, a cancel). */
  items: z.array(
    z.union([generationResult, z.looseObject({ status: z.literal('skipped'), prompt: z.string() }), unqueuedItem]),
  ),
  /** The pause before each submit after the first, measured (ms). */
  pauses_ms: z.array(z.number().int().nonnegative()),
  /** The highest per-prompt exit code (0 when every prompt completed). */
  exit_code: z.number().int().nonnegative(),
  /** The quotes Flow showed, summed over the prompts that reached the click (null when one could not be read). */
  credits_quoted: z.number().int().nonnegative().nullable().optional(),
  /** Items made (or recovered) by this call; a resumed batch does not make its finished items again. */
  made: z.number().int().nonnegative().optional(),
  /** The first failure's problem document, when the batch did not complete. */
  error: z.unknown().optional(),
});
/** What `generateBatch` returns: the run's status and task id, the Flow project, each prompt's own envelope (files, media, error), the pauses, the exit code, what this call made, the first failure. */
export type GenerateBatchResult = z.output<typeof generateBatchResult>;

export const linkResult = z.looseObject({
  index: z.number().int().nonnegative(),
  prompt: z.string(),
  mode: z.enum(['t2v', 'i2v']),
  /** planned (a dry run), pending (not reached yet), running, done, failed, indeterminate (stopped after its submit: credits may have been spent). */
  status: z.enum(['planned', 'pending', 'running', 'done', 'failed', 'indeterminate']),
  /** Flow's quote for this link (dry_run + quote): its text-to-video price with the link's model, duration and aspect [U for i2v]. */
  credits_quoted: z.number().nullable().optional(),
  task_id: z.string().nullable().optional(),
  /** The link's last phase while it runs (claimed, submitting, submitted, generating, downloading). */
  phase: z.string().nullable().optional(),
  flow_media_id: z.string().nullable().optional(),
  file: z.string().nullable().optional(),
  /** The last frame taken from this link's clip (the next link's start frame). */
  frame: z.string().nullable().optional(),
  error: z.unknown().optional(),
});
export type LinkResult = z.output<typeof linkResult>;

export const chainResult = z.looseObject({
  status: z.enum(['planned', 'pending', 'running', 'completed', 'failed', 'cancelled', 'indeterminate']),
  chain_id: z.string().nullable(),
  /** The run's task id (the chain id): tasks/get, `gflow task show|wait|cancel` follow it. */
  task_id: z.string().nullable().optional(),
  flow_project_id: z.string().nullable(),
  links: z.array(linkResult),
  /** Links made (or recovered) by this call (a resumed chain skips the finished ones). */
  made: z.number().int().nonnegative(),
  exit_code: z.number().int().nonnegative(),
  /** The credits the chain will spend, from Flow's own quotes (dry_run + quote); null when not read or unreadable. */
  credits_quoted: z.number().nullable(),
  /** With stitch: the links joined into one file, and its OpenTimelineIO timeline. */
  output: z
    .looseObject({ path: z.string(), seconds: z.number(), frames: z.number(), bytes: z.number(), sha256: z.string() })
    .nullable()
    .optional(),
  timeline: z.string().nullable().optional(),
  /** The first failure's problem document, when the chain did not complete. */
  error: z.unknown().optional(),
});
/** What `generateChain` and `chainStatus` return: the chain id, its status, and each link with its task, media and files. */
export type ChainResult = z.output<typeof chainResult>;

/** One paid step of a story: a scene's new clip or one of its extensions. */
export const storyStepResult = z.looseObject({
  index: z.number().int().nonnegative(),
  /** The scene it belongs to (0-based). */
  scene: z.number().int().nonnegative(),
  /** t2v, i2v (from a file, a media id or the scene before's last frame), r2v (saved characters), extend. */
  mode: z.enum(['t2v', 'i2v', 'r2v', 'extend']),
  prompt: z.string(),
  /** planned (a dry run), pending (not reached yet), running, done, failed, indeterminate (stopped after its submit: credits may have been spent). */
  status: z.enum(['planned', 'pending', 'running', 'done', 'failed', 'indeterminate']),
  /** Flow's quote for this step (a dry run with quote), null when not read. */
  credits_quoted: z.number().nullable().optional(),
  task_id: z.string().nullable().optional(),
  phase: z.string().nullable().optional(),
  flow_media_id: z.string().nullable().optional(),
  file: z.string().nullable().optional(),
  error: z.unknown().optional(),
});
export type StoryStepResult = z.output<typeof storyStepResult>;

/** One clip of the finished movie, in order, as the timeline lists it. */
export const movieClip = z.looseObject({
  scene: z.number().int().nonnegative(),
  /** The step that made it, or null for a scene over an existing video. */
  step: z.number().int().nonnegative().nullable(),
  media_id: z.string().nullable(),
  prompt: z.string().nullable(),
  file: z.string(),
  /** In and out points in the clip (s): what of it the movie plays. */
  in_seconds: z.number().nonnegative(),
  out_seconds: z.number().nonnegative(),
});

export const movieResult = z.looseObject({
  /** planned / estimated (a dry run), pending, running, or how it ended. */
  status: z.enum(['planned', 'estimated', 'pending', 'running', 'completed', 'failed', 'cancelled', 'indeterminate']),
  /** The run's task id (the movie id): `gflow task show|wait|cancel`, resume_from. */
  movie_id: z.string().nullable(),
  task_id: z.string().nullable().optional(),
  title: z.string(),
  flow_project_id: z.string().nullable(),
  steps: z.array(storyStepResult),
  /** Steps made (or recovered) by this call (a resumed movie skips finished ones). */
  made: z.number().int().nonnegative(),
  exit_code: z.number().int().nonnegative(),
  /** The whole story's price from Flow's own quotes (dry_run + quote); null when a step's was not read. */
  credits_quoted: z.number().nullable(),
  /** The stitched movie, once made: its file and decoded length. */
  output: z
    .looseObject({ path: z.string(), seconds: z.number(), frames: z.number(), bytes: z.number(), sha256: z.string() })
    .nullable(),
  /** The OpenTimelineIO file beside the movie (every clip with its media id, in/out points and prompt). */
  timeline: z.string().nullable(),
  clips: z.array(movieClip).optional(),
  error: z.unknown().optional(),
});
/** What `makeMovie` returns: the movie id, its status, each paid step, and the stitched file with its timeline. */
export type MovieResult = z.output<typeof movieResult>;

/** What a run answers: a batch's, a chain's or a story's envelope. */
export type RunResult = GenerateBatchResult | ChainResult | MovieResult;
