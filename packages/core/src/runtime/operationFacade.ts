// The typed facade over `gflow.run` for the common calls: `gflow.images.generate(…)`,
// `gflow.videos.extend(…)`. Each method is the operation's name said once: it calls the runtime's
// one door (`run`) with that name, so input checks, progress, cancellation, the throwing mode and
// every result are the operation's own. Nothing here runs anything else.
import type { ChainResult, GenerateBatchResult, MovieResult } from '../runs/runResults.js';
import type { GenerationResult } from '../generation/schemas.js';
import type { OperationInput, OperationName, OperationOutput } from '../operations/registry.js';
import type { RunOptions } from './runOptions.js';

/** `gflow.run` for gflow's own operations: the one path every facade call takes. */
export type OperationRunner = <N extends OperationName>(
  name: N,
  input: OperationInput<N>,
  options?: RunOptions,
) => Promise<OperationOutput<N>>;

/** `gflow.images`: Nano Banana images on Google Flow. */
export interface ImageCalls {
  /**
   * `generateImage` (MCP `gflow_generate_image`): text-to-image, or image-to-image with
   * `reference_images`, downloaded and catalogued. Spends Flow's free daily quota of the model
   * (no credits); `dry_run: true` spends nothing. Resolves the generation envelope: `completed`
   * with `files`, `media` and the task, project and media ids; a failure with its `error`
   * (rejects instead under `throwOnFailure`); `pending` with its `task_id` for `wait: false`.
   */
  generate(input: OperationInput<'generateImage'>, options?: RunOptions): Promise<GenerationResult>;
  /**
   * `generateBatch` (MCP `gflow_generate_batch`): many prompts as one durable run in one project,
   * one after another. Spends the image quota once per prompt (a resumed run never pays twice for
   * a prompt). Resolves the run: its status (`partial` when some prompts failed), task id, and one
   * generation envelope per prompt in `items`.
   */
  batch(input: OperationInput<'generateBatch'>, options?: RunOptions): Promise<GenerateBatchResult>;
}

/** `gflow.videos`: Veo and Omni videos on Google Flow, and the local work on them. */
export interface VideoCalls {
  /**
   * `generateVideo` (MCP `gflow_generate_video`): text-to-video, image-to-video (`initial_frame`,
   * `end_frame`) or reference-to-video, downloaded and catalogued. Spends Flow credits, Flow's own
   * quote read before the click (`max_credits` refuses a dearer one; `dry_run: true` spends
   * nothing). Resolves the generation envelope, as {@link ImageCalls.generate} does.
   */
  generate(input: OperationInput<'generateVideo'>, options?: RunOptions): Promise<GenerationResult>;
  /**
   * `extendVideo` (MCP `gflow_extend_video`): a new clip that continues a finished one (`media_id`)
   * from its last second. Spends Flow credits like a video. Resolves the generation envelope of
   * the extension, a clip of its own (join them with {@link VideoCalls.stitch}).
   */
  extend(input: OperationInput<'extendVideo'>, options?: RunOptions): Promise<GenerationResult>;
  /**
   * `generateChain` (MCP `gflow_generate_chain`): clips in a row, each later one starting from the
   * last frame of the one before, as one durable run. Spends Flow credits per link (a resumed
   * chain never pays twice for a link). Resolves the chain: its id, status and every link.
   */
  chain(input: OperationInput<'generateChain'>, options?: RunOptions): Promise<ChainResult>;
  /**
   * `makeMovie` (MCP `gflow_make_movie`): a storyboard of scenes made into clips, extended and
   * stitched into one MP4 with its OpenTimelineIO timeline, as one durable run. Spends Flow credits
   * per clip. Resolves the movie: its id, status, every step, the stitched file and the timeline.
   */
  movie(input: OperationInput<'makeMovie'>, options?: RunOptions): Promise<MovieResult>;
  /**
   * `stitchVideos` (MCP `gflow_stitch_videos`): clips joined into one MP4 on this machine, without
   * re-encoding and without Flow. Spends nothing. Resolves the file written: its path, size,
   * length in seconds and frames, and each clip's part.
   */
  stitch(input: OperationInput<'stitchVideos'>, options?: RunOptions): Promise<OperationOutput<'stitchVideos'>>;
}

/** `gflow.images` over a runtime's `run`. */
export function imageCalls(run: OperationRunner): ImageCalls {
  return {
    generate: (input, options) => run('generateImage', input, options),
    batch: (input, options) => run('generateBatch', input, options),
  };
}

/** `gflow.videos` over a runtime's `run`. */
export function videoCalls(run: OperationRunner): VideoCalls {
  return {
    generate: (input, options) => run('generateVideo', input, options),
    extend: (input, options) => run('extendVideo', input, options),
    chain: (input, options) => run('generateChain', input, options),
    movie: (input, options) => run('makeMovie', input, options),
    stitch: (input, options) => run('stitchVideos', input, options),
  };
}
