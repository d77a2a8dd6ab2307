import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';
import { resolveStitchInputs, stitchTarget } from '../stitch/stitchInputs.js';
import { stitchToFile } from '../stitch/stitchJob.js';
import { localPath } from '../schemas/params.js';
import { defineOperation } from './operation.js';

/** Most clips one stitch joins (a 30-link chain or extend run, and room to spare). */
export const MAX_STITCH_CLIPS = 64;
/** Longest overlap trimmed at a join (s): an extension repeats up to its source's last second (flow-captures.md §10). */
export const MAX_STITCH_OVERLAP = 8;

const overlapSeconds = z.number().min(0).max(MAX_STITCH_OVERLAP);

export const stitchVideosInput = z.object({
  inputs: z
    .array(z.string().trim().min(1).max(1024))
    .min(2)
    .max(MAX_STITCH_CLIPS)
    .describe(
      `The clips, in order (2–${MAX_STITCH_CLIPS}): MP4 files (MCP: inside the output directory) or media ids of catalogued videos with a local copy.`,
    ),
  output: localPath.describe(
    'The .mp4 to write (MCP: relative to, and confined inside, GFLOW_CLI_OUTPUT_DIR). An existing file is refused unless overwrite.',
  ),
  overlap: overlapSeconds
    .default(0)
    .describe(
      "Seconds cut from the end of every clip but the last, at each join. An extension starts inside its source's last second (Flow seeds it from there), so 1 removes that repeat; 0 (default) keeps every frame.",
    ),
  overlaps: z
    .array(overlapSeconds)
    .max(MAX_STITCH_CLIPS - 1)
    .optional()
    .describe(
      'Per join instead of one overlap for all: seconds cut from the end of clip i before clip i+1 (one value per join).',
    ),
  overwrite: z.boolean().default(false).describe('true: replace a file already at output. false (default): refuse it.'),
  profile: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Profile whose catalog resolves media ids; omitted: every profile (an id under two is refused).'),
});

const stitchedClip = z.object({
  input: z.string(),
  media_id: z.string().nullable(),
  seconds: z.number(),
  frames: z.number(),
  trimmed_seconds: z.number(),
});

export const stitchVideosOutput = z.looseObject({
  status: z.literal('ok'),
  path: z.string(),
  bytes: z.number(),
  sha256: z.string(),
  seconds: z.number(),
  frames: z.number(),
  width: z.number(),
  height: z.number(),
  codec: z.string(),
  audio: z.boolean(),
  clips: z.array(stitchedClip),
  /** The catalog operation linking the inputs given as media ids (null when none was). */
  operation_id: z.number().nullable(),
});

type StitchInputValues = z.output<typeof stitchVideosInput>;

/** What is trimmed at each join: the per-join list (one per join) or the one overlap everywhere. */
export function trimsFor(input: Pick<StitchInputValues, 'inputs' | 'overlap' | 'overlaps'>): number[] {
  const joins = input.inputs.length - 1;
  if (input.overlaps === undefined) return new Array<number>(joins).fill(input.overlap);
  if (input.overlaps.length !== joins)
    throw new BadParameterError(
      `overlaps: give one value per join (${joins} for ${input.inputs.length} clips), not ${input.overlaps.length}.`,
      {
        extensions: { parameter: 'overlaps' },
      },
    );
  return [...input.overlaps];
}

export const stitchVideos = defineOperation({
  name: 'stitchVideos',
  mcpName: 'gflow_stitch_videos',
  title: 'Stitch clips into one video',
  description:
    'Joins video clips into one MP4 on this machine, in order, without re-encoding (nothing is lost; it takes moments) and without Flow: spends nothing. Inputs are MP4 files or media ids of downloaded videos. overlap trims that many seconds from the end of every clip but the last (1 removes the second an extension repeats from its source). Clips encoded differently (another size, codec or encoder settings, sound in one only) are refused naming the two and the difference. An existing output is refused unless overwrite. Records the file in the catalog with lineage to the inputs given as media ids. Returns {path, bytes, seconds, frames, width, height, clips[{input, seconds, frames, trimmed_seconds}]}.',
  kind: 'create',
  usesBrowser: false,
  input: stitchVideosInput,
  output: stitchVideosOutput,
  handler: async (input, context) => {
    // Output rules first: a refused output is refused before any clip is read.
    const target = stitchTarget(input.output, input.overwrite, context);
    const trims = trimsFor(input);
    const clips = await resolveStitchInputs(input.inputs, context, input.profile);
    return stitchToFile(context, { clips, trims, target, overwrite: input.overwrite });
  },
});
