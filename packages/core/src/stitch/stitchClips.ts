import fs from 'node:fs';
import { BadParameterError } from '@gflow/errors';
import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  type EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';
import { type Cut, cutPoint } from './cutPoint.js';
import { type ClipTracks, joinProblem } from './joinable.js';

/**
 * Joins clips into one MP4 without re-encoding (docs/ARCHITECTURE.md "Stitching"): mediabunny
 * demuxes each clip and muxes their packets, one after the other, into a new MP4 (moov first).
 * Nothing is decoded, so nothing is lost and it takes milliseconds; the price is that only clips
 * encoded alike can be joined (same codec, size, parameter sets, sound or none), checked first.
 */

/** A clip to join: what messages call it (the argument as given) and where its bytes are. */
export interface StitchClip {
  readonly label: string;
  readonly path: string;
}

export interface StitchedClip {
  readonly label: string;
  /** Seconds of this clip in the result (its length less what was trimmed at its end). */
  readonly seconds: number;
  readonly frames: number;
  /** Seconds trimmed from its end (the overlap with the next clip; 0 for the last). */
  readonly trimmedSeconds: number;
}

export interface StitchResult {
  readonly bytes: Uint8Array;
  readonly seconds: number;
  readonly frames: number;
  readonly width: number;
  readonly height: number;
  /** The video codec string (`avc1.42c01e`). */
  readonly codec: string;
  readonly audio: boolean;
  readonly clips: readonly StitchedClip[];
}

interface ReadClip extends ClipTracks {
  readonly label: string;
  readonly video: EncodedPacket[];
  readonly audio: EncodedPacket[] | null;
  readonly videoConfig: VideoDecoderConfig;
  readonly audioConfig: AudioDecoderConfig | null;
}

/**
 * Stitches `clips` in order; `trims[i]` seconds are cut from the end of clip i (the overlap the
 * next clip repeats: an extension starts inside its source's last second, flow-captures.md §10).
 * A clip that cannot be read, or two that cannot be joined, is BadParameterError (exit 2) naming them.
 */
export async function stitchClips(clips: readonly StitchClip[], trims: readonly number[]): Promise<StitchResult> {
  // One clip is a movie too (a story of one scene): its file, rewritten whole. `video stitch` asks for two.
  if (clips.length < 1) throw new BadParameterError('Name a clip to stitch.', { extensions: { parameter: 'inputs' } });
  const read: ReadClip[] = [];
  for (const clip of clips) read.push(await readClip(clip));
  for (let i = 1; i < read.length; i += 1) {
    const [a, b] = [read[i - 1], read[i]];
    const problem = a === undefined || b === undefined ? null : joinProblem(a, b);
    if (problem !== null)
      throw new BadParameterError(`${a?.label} and ${b?.label} cannot be joined: ${problem}. Nothing was written.`, {
        extensions: { parameter: 'inputs', clips: [a?.label, b?.label], difference: problem },
      });
  }
  return mux(read, trims);
}

async function readClip(clip: StitchClip): Promise<ReadClip> {
  const refuse = (why: string): never => {
    throw new BadParameterError(`${clip.label} ${why}. Nothing was written.`, {
      extensions: { parameter: 'inputs', clip: clip.label },
    });
  };
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(await fs.promises.readFile(clip.path)) });
  try {
    const video = await input.getPrimaryVideoTrack().catch(() => refuse('is not a video file gflow can read (MP4)'));
    if (video === null) return refuse('has no video track');
    const videoConfig = await video.getDecoderConfig();
    const codec = await video.getCodec();
    if (videoConfig === null || codec === null) return refuse('is encoded with a video codec gflow cannot copy');
    const audio = await input.getPrimaryAudioTrack();
    const audioConfig = audio === null ? null : await audio.getDecoderConfig();
    return {
      label: clip.label,
      codec,
      codecString: videoConfig.codec,
      width: await video.getDisplayWidth(),
      height: await video.getDisplayHeight(),
      description: bytesOf(videoConfig.description),
      audioCodec: audio === null ? null : await audio.getCodec(),
      audioDescription:
        audioConfig === null
          ? null
          : `${audioConfig.codec} ${audioConfig.sampleRate} Hz ${audioConfig.numberOfChannels} ch`,
      video: await packetsOf(video),
      audio: audio === null ? null : await packetsOf(audio),
      videoConfig,
      audioConfig,
    };
  } finally {
    input.dispose();
  }
}

async function packetsOf(track: ConstructorParameters<typeof EncodedPacketSink>[0]): Promise<EncodedPacket[]> {
  const out: EncodedPacket[] = [];
  for await (const packet of new EncodedPacketSink(track).packets()) out.push(packet);
  return out;
}

function bytesOf(description: AllowSharedBufferSource | undefined): Uint8Array | null {
  if (description === undefined) return null;
  if (ArrayBuffer.isView(description))
    return new Uint8Array(description.buffer, description.byteOffset, description.byteLength).slice();
  return new Uint8Array(description).slice();
}

/** The packets of every clip, each clip's timeline after the one before (its end cut by the trim), into one MP4. */
async function mux(clips: readonly ReadClip[], trims: readonly number[]): Promise<StitchResult> {
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const first = clips[0] as ReadClip;
  const videoSource = new EncodedVideoPacketSource(
    first.codec as ConstructorParameters<typeof EncodedVideoPacketSource>[0],
  );
  output.addVideoTrack(videoSource);
  const withAudio = first.audio !== null && first.audioConfig !== null;
  const audioSource = withAudio
    ? new EncodedAudioPacketSource(first.audioCodec as ConstructorParameters<typeof EncodedAudioPacketSource>[0])
    : null;
  if (audioSource !== null) output.addAudioTrack(audioSource);
  await output.start();
  let offset = 0;
  let frames = 0;
  const stitched: StitchedClip[] = [];
  for (const [index, clip] of clips.entries()) {
    const trim = index < clips.length - 1 ? (trims[index] ?? 0) : 0;
    const { cut, start } = await addClip({ clip, trim, offset, first: index === 0, videoSource, audioSource });
    const seconds = cut.end - start;
    stitched.push({ label: clip.label, seconds, frames: cut.keep, trimmedSeconds: clipEnd(clip.video) - cut.end });
    offset += seconds;
    frames += cut.keep;
  }
  await output.finalize();
  const bytes = new Uint8Array(target.buffer ?? new ArrayBuffer(0));
  return {
    bytes,
    seconds: offset,
    frames,
    width: first.width,
    height: first.height,
    codec: first.codecString,
    audio: withAudio,
    clips: stitched,
  };
}

function clipEnd(packets: readonly EncodedPacket[]): number {
  return Math.max(...packets.map((p) => p.timestamp + p.duration));
}

interface AddClip {
  readonly clip: ReadClip;
  readonly trim: number;
  readonly offset: number;
  readonly first: boolean;
  readonly videoSource: EncodedVideoPacketSource;
  readonly audioSource: EncodedAudioPacketSource | null;
}

/** Adds one clip's kept packets, shifted to start at `offset`; its sound is cut where its picture ends. */
async function addClip(job: AddClip): Promise<{ cut: Cut; start: number }> {
  const { clip, trim, offset, first, videoSource, audioSource } = job;
  const cut = cutPoint(clip.video, trim);
  if (cut.keep === 0)
    throw new BadParameterError(
      `${clip.label} is ${clipEnd(clip.video).toFixed(2)} s long: the ${trim} s overlap would trim all of it.`,
      {
        extensions: { parameter: 'overlap', clip: clip.label },
      },
    );
  const start = Math.min(...clip.video.map((p) => p.timestamp));
  for (const [i, packet] of clip.video.slice(0, cut.keep).entries()) {
    const moved = packet.clone({ timestamp: packet.timestamp - start + offset });
    await videoSource.add(moved, first && i === 0 ? { decoderConfig: clip.videoConfig } : undefined);
  }
  if (audioSource !== null && clip.audio !== null) {
    for (const [i, packet] of clip.audio.entries()) {
      // Only sound that ends with the picture: the next clip's sound never overlaps it (a gap of
      // under one audio frame, ~21 ms of AAC, at most).
      if (packet.timestamp - start + packet.duration > cut.end - start + 1e-4) break;
      const moved = packet.clone({ timestamp: Math.max(0, packet.timestamp - start) + offset });
      await audioSource.add(
        moved,
        first && i === 0 && clip.audioConfig !== null ? { decoderConfig: clip.audioConfig } : undefined,
      );
    }
  }
  return { cut, start };
}
