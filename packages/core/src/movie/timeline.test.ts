// A movie's timeline is OpenTimelineIO JSON an editor imports: one video track, a clip per
// movie clip with its file, the range the movie plays (at 24 fps) and gflow's facts.
import { describe, expect, it } from 'vitest';
import { timelineFileOf, timelineJson } from './timeline.js';

interface OtioClip {
  media_references: { DEFAULT_MEDIA: { target_url: string } };
  source_range: { duration: { value: number } };
}
interface Otio {
  tracks: { children: Array<{ children: OtioClip[] }> };
}

describe('the movie timeline (OTIO)', () => {
  it('lists every clip with its file URL, in/out points at 24 fps, media id and prompt', () => {
    const doc = JSON.parse(
      timelineJson('The keeper', [
        {
          name: 'Dawn',
          file: '/m/scene-1.mp4',
          mediaId: 'm-1',
          prompt: 'dawn',
          scene: 0,
          seconds: 8,
          inSeconds: 0,
          outSeconds: 7,
        },
        {
          name: 'Scene 1 · extension 1',
          file: '/m/a b.mp4',
          mediaId: 'm-2',
          prompt: 'on',
          scene: 0,
          seconds: 7,
          inSeconds: 0,
          outSeconds: 7,
        },
      ]),
    ) as Otio;
    expect(doc).toMatchObject({ OTIO_SCHEMA: 'Timeline.1', name: 'The keeper', global_start_time: null });
    expect(doc.tracks).toMatchObject({ OTIO_SCHEMA: 'Stack.1' });
    const track = doc.tracks.children[0] as Otio['tracks']['children'][number];
    expect(track).toMatchObject({ OTIO_SCHEMA: 'Track.1', kind: 'Video' });
    const [first, second] = track.children as [OtioClip, OtioClip];
    expect(first).toMatchObject({
      OTIO_SCHEMA: 'Clip.2',
      name: 'Dawn',
      metadata: { gflow: { media_id: 'm-1', prompt: 'dawn', scene: 1 } },
      source_range: { start_time: { value: 0, rate: 24 }, duration: { value: 168, rate: 24 } },
      active_media_reference_key: 'DEFAULT_MEDIA',
      media_references: {
        DEFAULT_MEDIA: {
          OTIO_SCHEMA: 'ExternalReference.1',
          target_url: 'file:///m/scene-1.mp4',
          available_range: { duration: { value: 192, rate: 24 } },
        },
      },
    });
    expect(second.media_references.DEFAULT_MEDIA.target_url).toBe('file:///m/a%20b.mp4');
    expect(second.source_range.duration.value).toBe(168);
  });

  it('sits beside the movie', () => {
    expect(timelineFileOf('/out/long.mp4')).toBe('/out/long.otio');
  });
});
