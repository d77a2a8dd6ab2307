import { describe, expect, it } from 'vitest';
import { type ClipTracks, joinProblem } from './joinable.js';

const clip: ClipTracks = {
  codec: 'avc',
  codecString: 'avc1.42c01f',
  width: 1280,
  height: 720,
  description: Uint8Array.from([1, 66, 192, 31]),
  audioCodec: null,
  audioDescription: null,
};

describe('joinProblem: what keeps two clips apart', () => {
  it('joins clips encoded alike', () => {
    expect(joinProblem(clip, { ...clip, description: Uint8Array.from([1, 66, 192, 31]) })).toBeNull();
  });

  it('names the difference: size, codec, profile, parameter sets, sound', () => {
    expect(joinProblem(clip, { ...clip, width: 720, height: 1280 })).toBe('the first is 1280×720, the second 720×1280');
    expect(joinProblem(clip, { ...clip, codec: 'hevc' })).toBe('the first is avc video, the second hevc');
    expect(joinProblem(clip, { ...clip, codecString: 'avc1.64001f' })).toMatch(
      /avc1.42c01f, the second as avc1.64001f/,
    );
    expect(joinProblem(clip, { ...clip, description: Uint8Array.from([1, 66, 192, 30]) })).toMatch(
      /parameter sets differ/,
    );
    expect(joinProblem(clip, { ...clip, audioCodec: 'aac', audioDescription: 'mp4a.40.2 48000 Hz 2 ch' })).toBe(
      'the second has sound, the first has none',
    );
    const loud = { ...clip, audioCodec: 'aac', audioDescription: 'mp4a.40.2 48000 Hz 2 ch' };
    expect(joinProblem(loud, { ...loud, audioDescription: 'mp4a.40.2 44100 Hz 2 ch' })).toMatch(/48000 Hz .* 44100 Hz/);
  });
});
