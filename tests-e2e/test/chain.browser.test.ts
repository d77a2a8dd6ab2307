// Journey: a video chain (issue #20) — `gflow video chain story.jsonl -y`: link 1 text-to-video,
// links 2 and 3 image-to-video from the last frame of the clip before, which gflow took from the
// downloaded clip and uploaded (held here against what the simulator's encoder put in that frame);
// a dry run sends nothing; a chain killed after link 2 is resumed and spends only link 3.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '@gflow/flow-sim/testing';
import { json, waitFor } from '@gflow/testkit';
import { submits, useSandbox } from '@gflow/testkit/sandbox';
import { runRows } from './helpers/catalog.js';
import { videoPixels } from './helpers/media.js';

const e2e = useSandbox({ seed: 'journey-chain', signIn: true });

interface Chain {
  readonly status: string;
  readonly chain_id: string;
  readonly flow_project_id: string;
  readonly made: number;
  readonly links: Array<{ status: string; mode: string; flow_media_id: string; file: string; frame: string | null }>;
}

const STORY = [
  { prompt: 'a lighthouse on a cliff, the camera pans right' },
  { prompt: 'the beam sweeps the sea, the camera pans left' },
  { prompt: 'a ship turns toward the light, the camera tilts up' },
];

function storyFile(name: string): string {
  const file = path.join(e2e.home, name);
  fs.writeFileSync(file, `# the story\n${STORY.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

type Picture = { width: number; height: number; rgb: Uint8Array };
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

/** The PNG bytes of every upload (maseQ) the simulator received, in order. */
function uploadedFrames(): Picture[] {
  return e2e.sim.received.calls('maseQ').map((call) => {
    const b64 = ((JSON.parse(String(call.inner)) as unknown[][])[0]?.[1] as string | undefined) ?? '';
    const picture = decodePng(Buffer.from(b64, 'base64'));
    if (picture === undefined) throw new Error('an upload that is not a PNG');
    return picture;
  });
}

describe('video chain', () => {
  it("--dry-run checks the whole plan, reads Flow's price of each link and sends nothing; an Omni link is refused (exit 2)", async () => {
    e2e.sim.received.clear();
    const plan = await e2e.cli(['video', 'chain', storyFile('plan.jsonl'), '--dry-run', '--sandbox', '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    // Flow's default model (Veo 3.1 - Lite, 8 s) quotes 10 credits a clip (flow-wire §4, measured).
    expect(json(plan)).toMatchObject({
      status: 'planned',
      chain_id: null,
      credits_quoted: 30,
      links: [
        { mode: 't2v', credits_quoted: 10 },
        { mode: 'i2v', credits_quoted: 10 },
        { mode: 'i2v', credits_quoted: 10 },
      ],
    });
    expect(submits(e2e.sim)).toEqual([]);
    const omni = path.join(e2e.home, 'omni.jsonl');
    fs.writeFileSync(omni, '{"prompt": "a"}\n{"prompt": "b", "model": "omni_flash"}\n');
    const refused = await e2e.cli(['video', 'chain', omni, '-y', '--sandbox', '--json']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toMatch(/links\[1\]: chains take Veo models/);
    const noTty = await e2e.cli(['video', 'chain', storyFile('ask.jsonl'), '--sandbox']);
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toMatch(/pass -y/);
    expect(submits(e2e.sim)).toEqual([]);
  }, 120_000);

  it('-y makes 3 playable clips; links 2 and 3 start from the last frame of the clip before', async () => {
    e2e.sim.received.clear();
    const out = path.join(e2e.home, 'story');
    const run = await e2e.cli(
      [
        'video',
        'chain',
        storyFile('story.jsonl'),
        '-y',
        '--aspect',
        '16:9',
        '--jitter',
        '0',
        '--out-dir',
        out,
        '--sandbox',
        '--json',
      ],
      {
        timeoutMs: 290_000,
      },
    );
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
    const chain = json(run) as unknown as Chain;
    expect(chain).toMatchObject({ status: 'completed', made: 3 });
    expect(submits(e2e.sim)).toEqual(['YhhmEf', 'eb1hJf', 'eb1hJf']);
    for (const link of chain.links) {
      expect(link.file.startsWith(out + path.sep)).toBe(true);
      expect(videoPixels(link.file), link.file).toMatchObject({ width: 1280, height: 720 });
    }
    const frames = uploadedFrames();
    expect(frames).toHaveLength(2);
    for (const [k, frame] of frames.entries()) {
      const before = chain.links[k]!.flow_media_id;
      const last = e2e.sim.scenario.expectedFrame(before, 'last');
      const first = e2e.sim.scenario.expectedFrame(before, 'first');
      const error = mae(frame, last);
      expect(error, `link ${k + 2}'s start frame against the last frame of link ${k + 1}`).toBeLessThan(5);
      expect(mae(frame, first), 'and it is not that clip’s first frame').toBeGreaterThan(2 * error + 5);
    }
    const status = await e2e.cli(['video', 'chain-status', chain.chain_id, '--sandbox', '--json']);
    expect(json(status)).toMatchObject({
      status: 'completed',
      links: [{ status: 'done' }, { status: 'done' }, { status: 'done' }],
    });
  }, 300_000);

  it("Ctrl-C while link 2 is generating: the text names the credits that may have been spent (the run's project, link 2's media id) and the resume; chain-status then says it is not running", async () => {
    const earlier = new Set(runRows(e2e.dbPath, 'chain').map((r) => r.task_id));
    // Slower clips, so link 2's wait on Flow is long enough to be seen and interrupted.
    e2e.sim.scenario.setLatency(0.3);
    const victim = e2e.spawn(['video', 'chain', storyFile('interrupted.jsonl'), '-y', '--jitter', '0', '--sandbox']);
    let media = '';
    let chainId = '';
    let interrupted: Awaited<typeof victim.done>;
    try {
      const row = await waitFor(
        'link 2 generating, its media id in the catalog',
        () =>
          runRows(e2e.dbPath, 'chain').find(
            (r) =>
              !earlier.has(r.task_id) &&
              r.steps[1]?.status === 'working' &&
              r.steps[1].checkpoint?.phase === 'generating' &&
              (r.steps[1].checkpoint.media_ids?.length ?? 0) > 0,
          ),
        240_000,
        20,
      );
      chainId = row.task_id;
      media = row.steps[1]?.checkpoint?.media_ids?.[0] ?? '';
      process.kill(victim.pid, 'SIGINT');
      interrupted = await victim.done;
    } finally {
      victim.killGroup();
      e2e.sim.scenario.setLatency('fast');
    }
    const status = json(await e2e.cli(['video', 'chain-status', chainId, '--sandbox', '--json'])) as unknown as Chain;
    expect(status.status).toBe('indeterminate');
    expect(status.links.map((l) => l.status)).toEqual(['done', 'indeterminate', 'pending']);
    expect(status.links[1]?.flow_media_id).toBe(media);
    const said = `${interrupted.stdout}\n${interrupted.stderr.slice(-2000)}`;
    expect(interrupted.exitCode, said).not.toBe(0);
    expect(interrupted.stdout, said).toContain(`Chain ${chainId}: indeterminate`);
    expect(interrupted.stdout, said).toContain(
      `Link 2 may have spent credits (Flow project ${status.flow_project_id}, media ${media})`,
    );
    expect(interrupted.stdout, said).toContain(`Continue it with 'gflow task resume ${chainId} --sandbox'`);
  }, 300_000);

  it('--no-wait hands the chain to a background worker; task wait follows it to its clips; the same --idempotency-key again pays nothing', async () => {
    e2e.sim.received.clear();
    const args = ['video', 'chain', storyFile('queued.jsonl'), '-y', '--jitter', '0', '--sandbox'];
    const queued = await e2e.cli([...args, '--no-wait', '--idempotency-key', 'story-queued-1']);
    expect(queued.exitCode, queued.stderr.slice(-2000)).toBe(0);
    const id = /^Chain (\S+) queued \(3 links\); a background worker runs it\.$/m.exec(queued.stdout)?.[1] ?? '';
    expect(id, queued.stdout).not.toBe('');
    expect(queued.stdout).toContain(`Follow it: 'gflow task wait ${id} --sandbox'`);
    const waited = await e2e.cli(['task', 'wait', id, '--sandbox', '--json'], { timeoutMs: 280_000 });
    expect(waited.exitCode, waited.stderr.slice(-2000)).toBe(0);
    const chain = json(waited) as unknown as Chain;
    expect(chain).toMatchObject({ status: 'completed', chain_id: id });
    expect(chain.links.every((l) => fs.existsSync(l.file))).toBe(true);
    expect(submits(e2e.sim)).toEqual(['YhhmEf', 'eb1hJf', 'eb1hJf']);
    // An agent retrying the same command with its key gets that chain back; nothing is sent again.
    const again = await e2e.cli([...args, '--idempotency-key', 'story-queued-1', '--json']);
    expect(again.exitCode, again.stderr.slice(-2000)).toBe(0);
    expect(json(again)).toMatchObject({ status: 'completed', chain_id: id });
    expect(submits(e2e.sim)).toEqual(['YhhmEf', 'eb1hJf', 'eb1hJf']);
  }, 300_000);

  it('killed after link 2, --resume-from makes only link 3', async () => {
    e2e.sim.received.clear();
    const earlier = new Set(runRows(e2e.dbPath, 'chain').map((r) => r.task_id));
    const victim = e2e.spawn([
      'video',
      'chain',
      storyFile('killed.jsonl'),
      '-y',
      '--jitter',
      '0',
      '--sandbox',
      '--json',
    ]);
    let chainId = '';
    try {
      const row = await waitFor(
        'link 2 done in the catalog',
        () => runRows(e2e.dbPath, 'chain').find((r) => !earlier.has(r.task_id) && r.steps[1]?.status === 'completed'),
        240_000,
      );
      chainId = row.task_id;
      victim.killGroup();
      await victim.done;
    } finally {
      victim.killGroup();
    }
    expect(submits(e2e.sim)).toEqual(['YhhmEf', 'eb1hJf']);
    // Its process is gone: the chain is not called running.
    const after = json(await e2e.cli(['video', 'chain-status', chainId, '--sandbox', '--json'])) as unknown as Chain;
    expect(after.status).not.toBe('running');
    const resumed = await e2e.cli(['video', 'chain', '--resume-from', chainId, '-y', '--sandbox', '--json'], {
      timeoutMs: 200_000,
    });
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    const chain = json(resumed) as unknown as Chain;
    expect(chain).toMatchObject({ status: 'completed', made: 1, chain_id: chainId });
    // Only link 3 was sent: one more i2v, no second text-to-video.
    expect(submits(e2e.sim)).toEqual(['YhhmEf', 'eb1hJf', 'eb1hJf']);
    expect(chain.links.every((l) => fs.existsSync(l.file))).toBe(true);
  }, 300_000);
});
