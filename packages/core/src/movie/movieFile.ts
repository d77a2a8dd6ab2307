import fs from 'node:fs';
import path from 'node:path';
import type { TaskRecord } from '@gflow/catalog';
import { writeNewFile } from '../output/writeNew.js';
import type { OperationContext } from '../runtime/operationContext.js';
import type { StitchInput } from '../stitch/stitchInputs.js';
import { stitchToFile } from '../stitch/stitchJob.js';
import { type TimelineClip, timelineFileOf, timelineJson } from './timeline.js';

/** One clip of a run's movie, in order, before it is measured. */
export interface MovieClipSource {
  readonly name: string;
  readonly file: string;
  readonly mediaId: string | null;
  readonly prompt: string | null;
  readonly scene: number;
  /** The step of the run that made it; null for an existing video. */
  readonly step: number | null;
}

/** A run's movie as its envelope reports it. */
export type WrittenMovie = {
  readonly output: { path: string; seconds: number; frames: number; bytes: number; sha256: string };
  readonly timeline: string;
  readonly clips: Array<{
    scene: number;
    step: number | null;
    media_id: string | null;
    prompt: string | null;
    file: string;
    in_seconds: number;
    out_seconds: number;
  }>;
};

/** A file this run wrote before a crash may be replaced by it (newer than the run); any other only with overwrite. */
function mayReplace(file: string, record: TaskRecord, overwrite: boolean): boolean {
  if (overwrite) return true;
  try {
    return fs.statSync(file).mtimeMs >= Date.parse(record.createdAt);
  } catch {
    return false;
  }
}

/**
 * The movie of a run (a story, a chain with --stitch): its clips stitched into `target` (the one
 * stitch home, mediabunny), then its OpenTimelineIO timeline beside it, each clip with the range
 * the movie plays of it. Clips that are catalogued videos are linked to the stitch in the catalog.
 */
export async function writeMovie(
  context: OperationContext,
  record: TaskRecord,
  job: {
    readonly title: string;
    readonly profile: string;
    readonly clips: readonly MovieClipSource[];
    readonly trims: readonly number[];
    readonly target: string;
    readonly overwrite: boolean;
  },
): Promise<WrittenMovie> {
  const { catalog } = context.runtime;
  const inputs: StitchInput[] = job.clips.map((c) => {
    const asset = c.mediaId === null ? undefined : catalog.assets.getByMediaId(job.profile, c.mediaId);
    const linked = asset === undefined ? null : { id: asset.id, profileName: job.profile, mediaId: asset.flowMediaId };
    return { label: c.mediaId ?? path.basename(c.file), path: c.file, asset: linked };
  });
  const overwrite = mayReplace(job.target, record, job.overwrite);
  const movie = await stitchToFile(context, { clips: inputs, trims: job.trims, target: job.target, overwrite });
  const timed: Array<TimelineClip & { step: number | null }> = job.clips.map((c, i) => {
    const kept = movie.clips[i];
    return {
      ...c,
      seconds: (kept?.seconds ?? 0) + (kept?.trimmed_seconds ?? 0),
      inSeconds: 0,
      outSeconds: kept?.seconds ?? 0,
    };
  });
  const timeline = timelineFileOf(job.target);
  const json = Buffer.from(timelineJson(job.title, timed));
  await writeNewFile(timeline, json, mayReplace(timeline, record, job.overwrite));
  return {
    output: {
      path: movie.path,
      seconds: movie.seconds,
      frames: movie.frames,
      bytes: movie.bytes,
      sha256: movie.sha256,
    },
    timeline,
    clips: timed.map((c) => ({
      scene: c.scene,
      step: c.step,
      media_id: c.mediaId,
      prompt: c.prompt,
      file: c.file,
      in_seconds: c.inSeconds,
      out_seconds: c.outSeconds,
    })),
  };
}
