/** What decides whether two clips can be joined without re-encoding. */
export interface ClipTracks {
  /** The video codec (`avc`, `hevc`, `vp9`, `av1`, …). */
  readonly codec: string;
  /** Its full codec string (`avc1.42c01e`: profile and level). */
  readonly codecString: string;
  readonly width: number;
  readonly height: number;
  /** The decoder configuration record (an `avcC`: the H.264 parameter sets), or null. */
  readonly description: Uint8Array | null;
  readonly audioCodec: string | null;
  /** The sound's codec, rate and channels in words, or null when the clip has no sound. */
  readonly audioDescription: string | null;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Why clip `b` cannot follow clip `a` in one MP4 track without re-encoding, in words naming both
 * sides, or null when it can: one track has one codec, one frame size and one set of decoder
 * parameters; a sound track has to run through every clip or none.
 */
export function joinProblem(a: ClipTracks, b: ClipTracks): string | null {
  if (a.codec !== b.codec) return `the first is ${a.codec} video, the second ${b.codec}`;
  if (a.width !== b.width || a.height !== b.height)
    return `the first is ${a.width}×${a.height}, the second ${b.width}×${b.height}`;
  if (a.codecString !== b.codecString)
    return `the first is encoded as ${a.codecString}, the second as ${b.codecString}`;
  if (!sameBytes(a.description, b.description))
    return 'their video was encoded with different settings (decoder parameter sets differ)';
  if ((a.audioCodec === null) !== (b.audioCodec === null))
    return a.audioCodec === null
      ? 'the second has sound, the first has none'
      : 'the first has sound, the second has none';
  if (a.audioDescription !== b.audioDescription)
    return `the first's sound is ${a.audioDescription ?? 'none'}, the second's ${b.audioDescription ?? 'none'}`;
  return null;
}
