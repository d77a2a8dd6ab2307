import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A movie's timeline as OpenTimelineIO JSON (`Timeline.1`, the interchange format editors import):
 * one video track with a clip per paid step (and per scene over an existing video), in order, each
 * referencing its file with the range the stitched movie plays (in at 0, out before the overlap its
 * extension repeats) and gflow's facts in its metadata (media id, prompt, scene). Only OTIO's core
 * schemas are written, so any OTIO reader takes it.
 */
export interface TimelineClip {
  readonly name: string;
  readonly file: string;
  readonly mediaId: string | null;
  readonly prompt: string | null;
  readonly scene: number;
  /** The clip's whole length (s), as decoded. */
  readonly seconds: number;
  /** What the movie plays of it (s). */
  readonly inSeconds: number;
  readonly outSeconds: number;
}

/** Every clip gflow makes is 24 fps (flow-captures §10's frame windows count at 24). */
export const TIMELINE_RATE = 24;

const time = (seconds: number) => ({
  OTIO_SCHEMA: 'RationalTime.1',
  rate: TIMELINE_RATE,
  value: Math.round(seconds * TIMELINE_RATE),
});

const range = (start: number, duration: number) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  start_time: time(start),
  duration: time(duration),
});

const item = (name: string) => ({ name, metadata: {}, effects: [], markers: [], enabled: true });

function clipOf(clip: TimelineClip): Record<string, unknown> {
  return {
    OTIO_SCHEMA: 'Clip.2',
    ...item(clip.name),
    metadata: { gflow: { media_id: clip.mediaId, prompt: clip.prompt, scene: clip.scene + 1 } },
    source_range: range(clip.inSeconds, clip.outSeconds - clip.inSeconds),
    active_media_reference_key: 'DEFAULT_MEDIA',
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: path.basename(clip.file),
        metadata: {},
        target_url: pathToFileURL(clip.file).href,
        available_range: range(0, clip.seconds),
      },
    },
  };
}

/** The OTIO document of a movie (pretty JSON text). */
export function timelineJson(title: string, clips: readonly TimelineClip[]): string {
  const track = {
    OTIO_SCHEMA: 'Track.1',
    ...item('Video'),
    kind: 'Video',
    source_range: null,
    children: clips.map(clipOf),
  };
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    name: title,
    metadata: { gflow: { clips: clips.length } },
    global_start_time: null,
    tracks: { OTIO_SCHEMA: 'Stack.1', ...item('tracks'), source_range: null, children: [track] },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}

/** The timeline file beside a movie: `long.mp4` → `long.otio`. */
export function timelineFileOf(movie: string): string {
  return path.join(path.dirname(movie), `${path.parse(movie).name}.otio`);
}
