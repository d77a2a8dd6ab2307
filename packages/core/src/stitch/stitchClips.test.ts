import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeMp4, makePng } from '@gflow/flow-sim';
import { hasErrorCode } from '@gflow/errors';
import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';
import { stitchClips } from './stitchClips.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-stitch-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A clip from the simulator's own H.264 encoder (what Flow's sandbox serves). */
function clip(name: string, width: number, height: number, seconds: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, makeMp4({ width, height, seconds, key: name, prompt: `pan ${name}` }));
  return file;
}

/** What a demuxer reads back: the video track's packets, its duration and size, and whether there is sound. */
async function demux(bytes: Uint8Array) {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const video = await input.getPrimaryVideoTrack();
  if (video === null) throw new Error('no video track');
  let packets = 0;
  let keys = 0;
  for await (const p of new EncodedPacketSink(video).packets()) {
    packets += 1;
    if (p.type === 'key') keys += 1;
  }
  const out = {
    packets,
    keys,
    seconds: await video.computeDuration(),
    width: await video.getDisplayWidth(),
    height: await video.getDisplayHeight(),
    audio: (await input.getPrimaryAudioTrack()) !== null,
    audioSeconds: await (await input.getPrimaryAudioTrack())?.computeDuration(),
  };
  input.dispose();
  return out;
}

/** The same clip with a PCM sound track under it (a Veo clip has sound; the simulator's have none). */
async function withSound(name: string, videoFile: string, seconds: number): Promise<string> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(videoFile)) });
  const track = (await input.getPrimaryVideoTrack())!;
  const config = (await track.getDecoderConfig())!;
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const video = new EncodedVideoPacketSource('avc');
  const audio = new EncodedAudioPacketSource('pcm-s16');
  output.addVideoTrack(video);
  output.addAudioTrack(audio);
  await output.start();
  let first = true;
  for await (const p of new EncodedPacketSink(track).packets()) {
    await video.add(p, first ? { decoderConfig: config } : undefined);
    first = false;
  }
  const rate = 8000;
  for (let i = 0; i < seconds * 10; i += 1) {
    const data = new Uint8Array((rate / 10) * 2);
    await audio.add(
      new EncodedPacket(data, 'key', i / 10, 0.1),
      i === 0 ? { decoderConfig: { codec: 'pcm-s16', sampleRate: rate, numberOfChannels: 1 } } : undefined,
    );
  }
  await output.finalize();
  input.dispose();
  const file = path.join(dir, name);
  fs.writeFileSync(file, new Uint8Array(target.buffer!));
  return file;
}

describe('stitchClips: clips joined without re-encoding', () => {
  const a = clip('a.mp4', 128, 72, 8);
  const b = clip('b.mp4', 128, 72, 7);

  it('a then b: the sum of their lengths and of their frames, one key frame per clip, 24 fps', async () => {
    const result = await stitchClips(
      [
        { label: 'a.mp4', path: a },
        { label: 'b.mp4', path: b },
      ],
      [0],
    );
    expect(result).toMatchObject({ seconds: 15, frames: 360, width: 128, height: 72, audio: false });
    expect(result.codec).toMatch(/^avc1\./);
    expect(await demux(result.bytes)).toEqual({
      packets: 360,
      keys: 2,
      seconds: 15,
      width: 128,
      height: 72,
      audio: false,
      audioSeconds: undefined,
    });
    expect(Buffer.from(result.bytes.subarray(4, 8)).toString('latin1')).toBe('ftyp');
  });

  it('one clip (a movie of one scene) is that clip: its frames and length, nothing trimmed', async () => {
    const result = await stitchClips([{ label: 'a', path: a }], []);
    expect(result).toMatchObject({ seconds: 8, frames: 192, width: 128, height: 72 });
    expect(result.clips).toEqual([expect.objectContaining({ frames: 192, trimmedSeconds: 0 })]);
    expect((await demux(result.bytes)).packets).toBe(192);
  });

  it('an overlap trims the end of every clip but the last: 8 + 7 + 7 with 1 s at each join is 20 s', async () => {
    const result = await stitchClips(
      [
        { label: 'a', path: a },
        { label: 'b', path: b },
        { label: 'b again', path: b },
      ],
      [1, 1],
    );
    expect(result.seconds).toBeCloseTo(20, 6);
    expect(result.frames).toBe(480);
    expect(result.clips.map((c) => [c.frames, Math.round(c.trimmedSeconds * 1000) / 1000])).toEqual([
      [168, 1],
      [144, 1],
      [168, 0],
    ]);
    const read = await demux(result.bytes);
    expect(read.packets).toBe(480);
    expect(read.seconds).toBeCloseTo(20, 6);
  });

  it('refuses clips of another size, naming both and the difference', async () => {
    const tall = clip('tall.mp4', 72, 128, 4);
    const error = await stitchClips(
      [
        { label: 'a.mp4', path: a },
        { label: 'tall.mp4', path: tall },
      ],
      [0],
    ).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'bad-parameter')).toBe(true);
    expect(String((error as Error).message)).toBe(
      'a.mp4 and tall.mp4 cannot be joined: the first is 128×72, the second 72×128. Nothing was written.',
    );
  });

  it('refuses what is not a video, and an overlap that would trim a whole clip', async () => {
    const png = path.join(dir, 'still.png');
    fs.writeFileSync(png, makePng(16, 16, 'still'));
    const notVideo = await stitchClips(
      [
        { label: 'a.mp4', path: a },
        { label: 'still.png', path: png },
      ],
      [0],
    ).catch((e: unknown) => e);
    expect(String((notVideo as Error).message)).toMatch(/^still.png is not a video file gflow can read/);
    const short = clip('short.mp4', 128, 72, 1);
    const trimmed = await stitchClips(
      [
        { label: 'short.mp4', path: short },
        { label: 'a.mp4', path: a },
      ],
      [1],
    ).catch((e: unknown) => e);
    expect(hasErrorCode(trimmed, 'bad-parameter')).toBe(true);
    expect(String((trimmed as Error).message)).toMatch(/short.mp4 is 1.00 s long/);
  });

  it('carries the sound of clips that have it, cut where the picture is; refuses sound in one clip only', async () => {
    const loudA = await withSound('loud-a.mp4', a, 8);
    const loudB = await withSound('loud-b.mp4', b, 7);
    const result = await stitchClips(
      [
        { label: 'loud-a', path: loudA },
        { label: 'loud-b', path: loudB },
      ],
      [1],
    );
    expect(result.audio).toBe(true);
    const read = await demux(result.bytes);
    expect(read).toMatchObject({ packets: 336, audio: true });
    // The sound of a's last second is cut with its picture: 7 s of a, then 7 s of b.
    expect(read.audioSeconds).toBeCloseTo(14, 1);
    const error = await stitchClips(
      [
        { label: 'loud-a', path: loudA },
        { label: 'b.mp4', path: b },
      ],
      [0],
    ).catch((e: unknown) => e);
    expect(String((error as Error).message)).toBe(
      'loud-a and b.mp4 cannot be joined: the first has sound, the second has none. Nothing was written.',
    );
  });
});
