// A clip's last frame, taken with the browser gflow drives (chains start each link from it): it is
// the picture the clip ends on — held against what the simulator's encoder put there, not against
// another decode — and not its first frame.
import { beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '@gflow/flow-sim/testing';
import { lastFrameOf } from '../src/index.js';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-last-frame');
const email = 'frames@example.com';
let projectId: string;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000 });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

type Picture = { width: number; height: number; rgb: Uint8Array };

/** Mean absolute difference per channel on a grid of points. */
function mae(a: Picture, b: Picture): number {
  let sum = 0;
  let n = 0;
  for (let y = 4; y < a.height; y += 16)
    for (let x = 4; x < a.width; x += 16) {
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c += 1) sum += Math.abs((a.rgb[i + c] ?? 0) - (b.rgb[i + c] ?? 0));
      n += 3;
    }
  return sum / n;
}

describe('lastFrameOf', () => {
  it("is the picture the clip ends on (the pan's end), not its first", async () => {
    const clip = await rig.session.generateVideo({
      mode: 't2v',
      prompt: 'the camera pans right along a harbour wall',
      aspect: '16:9',
      count: 1,
      projectId,
      timeoutMs: 90_000,
    });
    const item = clip.items[0];
    const mp4 = await rig.session.download(item?.url ?? '', { kind: 'video', fallbackUrl: item?.posterUrl ?? null });
    const frame = await lastFrameOf(rig.session.context, mp4.bytes);
    expect([frame.width, frame.height]).toEqual([1280, 720]);
    expect(frame.duration).toBeCloseTo(8, 1);
    if (frame.mediaTime !== null) expect(frame.mediaTime).toBeGreaterThan(8 - 2 / 24);
    const decoded = decodePng(frame.png);
    expect(decoded).toBeDefined();
    const expected = rig.sim.scenario.expectedFrame(item?.mediaId ?? '', 'last');
    const start = rig.sim.scenario.expectedFrame(item?.mediaId ?? '', 'first');
    const error = mae(decoded!, expected);
    expect(error, 'against the encoded last picture').toBeLessThan(4);
    // The move shows: the clip's first picture is far from its last.
    expect(mae(decoded!, start), 'against the first picture').toBeGreaterThan(3 * error + 5);
  }, 150_000);

  it('refuses bytes that are not an MP4, and an MP4 the browser cannot decode', async () => {
    await expect(lastFrameOf(rig.session.context, Buffer.from('not a clip at all'))).rejects.toMatchObject({
      name: 'MediaDownloadError',
    });
    const broken = Buffer.alloc(64);
    broken.write('ftypisom', 4, 'latin1');
    await expect(lastFrameOf(rig.session.context, broken)).rejects.toThrow(/last frame/);
  }, 60_000);
});
