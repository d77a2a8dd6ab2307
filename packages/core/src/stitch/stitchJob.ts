import { createHash } from 'node:crypto';
import { writeNewFile } from '../output/writeNew.js';
import { loadOptionalPeer } from '../runtime/optionalPeer.js';
import type { OperationContext } from '../runtime/operationContext.js';
import type { StitchResult } from './stitchClips.js';
import type { StitchInput } from './stitchInputs.js';

/** A stitched file as the surfaces report it. */
export type StitchedFile = {
  readonly status: 'ok';
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly seconds: number;
  readonly frames: number;
  readonly width: number;
  readonly height: number;
  readonly codec: string;
  readonly audio: boolean;
  readonly clips: Array<{
    input: string;
    media_id: string | null;
    seconds: number;
    frames: number;
    trimmed_seconds: number;
  }>;
  /** The catalog operation linking the inputs that are catalogued videos (null when none is). */
  readonly operation_id: number | null;
};

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Joins resolved clips into one MP4 at `target` (mediabunny, core's optional peer: no re-encoding),
 * written whole or not at all, and records the stitch in the catalog. One home for `video stitch`
 * and a story's movie.
 */
export async function stitchToFile(
  context: OperationContext,
  job: { clips: readonly StitchInput[]; trims: readonly number[]; target: string; overwrite: boolean },
): Promise<StitchedFile> {
  const { stitchClips } = await loadOptionalPeer('mediabunny', 'Stitching clips', () => import('./stitchClips.js'));
  const result = await stitchClips(job.clips, job.trims);
  await writeNewFile(job.target, result.bytes, job.overwrite);
  const sha256 = createHash('sha256').update(result.bytes).digest('hex');
  const operationId = recordStitch(context, { ...job, result, sha256 });
  return {
    status: 'ok',
    path: job.target,
    bytes: result.bytes.byteLength,
    sha256,
    seconds: round(result.seconds),
    frames: result.frames,
    width: result.width,
    height: result.height,
    codec: result.codec,
    audio: result.audio,
    clips: result.clips.map((c, i) => ({
      input: c.label,
      media_id: job.clips[i]?.asset?.mediaId ?? null,
      seconds: round(c.seconds),
      frames: c.frames,
      trimmed_seconds: round(c.trimmedSeconds),
    })),
    operation_id: operationId,
  };
}

/**
 * The catalog's record of a stitch: an operation (`video stitch`, mode `stitch`) whose inputs are the
 * catalogued clips (role `input`, position = place in the stitch) and whose metadata names the file
 * written. The file itself is no Flow asset (it has no media id), so it is not an asset row. No
 * input given as a media id: nothing is recorded (null).
 */
function recordStitch(
  context: OperationContext,
  run: {
    clips: readonly StitchInput[];
    result: StitchResult;
    target: string;
    sha256: string;
    trims: readonly number[];
  },
): number | null {
  const linked = run.clips.flatMap((c, position) => (c.asset === null ? [] : [{ asset: c.asset, position }]));
  const first = linked[0];
  if (first === undefined) return null;
  const { catalog } = context.runtime;
  const operation = catalog.operations.start({
    profile: first.asset.profileName,
    command: context.surface === 'cli' ? 'video stitch' : 'gflow_stitch_videos',
    mode: 'stitch',
    surface: context.surface,
    metadata: {
      output: run.target,
      bytes: run.result.bytes.byteLength,
      sha256: run.sha256,
      seconds: round(run.result.seconds),
      frames: run.result.frames,
      trims: run.trims,
      inputs: run.clips.map((c) => ({ input: c.label, media_id: c.asset?.mediaId ?? null })),
    },
  });
  for (const { asset, position } of linked) catalog.assets.link(operation.id, asset.id, 'input', position);
  catalog.operations.succeed(operation.id);
  return operation.id;
}
