// Journey: from clips to a movie (issue 39). `gflow video extend ID "…" -n 2 --stitch -o long.mp4`
// makes two extensions in a row — two `fZytfe` submits, each naming the clip before's workflow id
// and its last second at 24 fps — and one MP4 whose decoded length is the source plus both
// extensions minus the second each repeats, with its OpenTimelineIO timeline. `gflow movie run` on a
// 3-scene storyboard (t2v with an extension, i2v from the scene before, r2v with a saved character)
// makes exactly the planned submits, survives a SIGKILL mid-way (`--resume-from` pays nothing
// twice) and writes the movie and its timeline; `movie plan` quotes the whole story and sends
// nothing; a storyboard with a problem is refused naming its scene and field, nothing submitted.
import fs from 'node:fs';
import path from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { describe, expect, it } from 'vitest';
import { json, waitFor } from '@gflow/testkit';
import { submits, useSandbox } from '@gflow/testkit/sandbox';
import { runRows } from './helpers/catalog.js';

const e2e = useSandbox({ seed: 'journey-movie', signIn: true });
const ENV = { GFLOW_CLI_RECOVERY_LISTING_SECONDS: '3' };

interface Made {
  readonly status: string;
  readonly flow_project_id: string;
  readonly flow_media_id: string;
  readonly flow_workflow_id: string;
}

interface Movie {
  status: string;
  movie_id: string;
  steps: Array<{ mode: string; status: string; flow_media_id?: string | null; file?: string | null }>;
  output: { path: string; seconds: number; frames: number } | null;
  timeline: string | null;
  credits_quoted: number | null;
}

async function made(args: readonly string[]): Promise<Made> {
  const r = await e2e.cli([...args, '--sandbox', '--json', '--progress', 'off']);
  expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
  return json(r) as unknown as Made;
}

/** The source slot and frame window of one fZytfe submit (flow-captures §10's inner layout). */
function extendRequestOf(inner: string): { source: unknown; window: unknown[] } {
  const [requests] = JSON.parse(inner) as [unknown[][]];
  const head = (requests[0] as unknown[])[0] as unknown[];
  return { source: head[1], window: head.slice(2, 4) };
}

/** The file's video track demuxed in Node: its packets (one per frame) and its length. */
async function demuxed(file: string): Promise<{ frames: number; seconds: number }> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (track === null) throw new Error(`${file} has no video track`);
    let frames = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) frames += packet.data.byteLength > 0 ? 1 : 0;
    return { frames, seconds: await input.computeDuration() };
  } finally {
    input.dispose();
  }
}

interface OtioClip {
  OTIO_SCHEMA: string;
  metadata: { gflow: { media_id: string | null; prompt: string | null } };
  source_range: { start_time: { value: number; rate: number }; duration: { value: number; rate: number } };
  media_references: { DEFAULT_MEDIA: { target_url: string } };
}

function timelineClips(file: string): OtioClip[] {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    OTIO_SCHEMA: string;
    tracks: { children: Array<{ OTIO_SCHEMA: string; kind: string; children: OtioClip[] }> };
  };
  expect(doc.OTIO_SCHEMA).toBe('Timeline.1');
  const track = doc.tracks.children[0];
  expect(track).toMatchObject({ OTIO_SCHEMA: 'Track.1', kind: 'Video' });
  return track?.children ?? [];
}

describe('video extend -n --stitch', () => {
  it('makes two extensions in a row (each naming the clip before) and one movie of their summed length minus the overlaps', async () => {
    const source = await made(['video', 't2v', 'a harbour at dawn, the camera drifts right', '--aspect', '16:9']);
    e2e.sim.received.clear();
    const long = path.join(e2e.home, 'long.mp4');
    const args = [
      'video',
      'extend',
      source.flow_media_id,
      'the camera keeps moving',
      '-n',
      '2',
      '--stitch',
      '-o',
      long,
    ];
    const r = await e2e.cli([...args, '--sandbox', '--json', '--progress', 'off'], { timeoutMs: 300_000 });
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    const movie = json(r) as unknown as Movie;
    expect(movie.status).toBe('completed');
    expect(movie.steps.map((s) => [s.mode, s.status])).toEqual([
      ['extend', 'done'],
      ['extend', 'done'],
    ]);

    expect(submits(e2e.sim)).toEqual(['fZytfe', 'fZytfe']);
    const [first, second] = e2e.sim.received.calls('fZytfe').map((c) => extendRequestOf(String(c.inner)));
    expect(first).toEqual({ source: source.flow_workflow_id, window: [169, 192] });
    const firstExtension = json(
      await e2e.cli(['data', 'media', String(movie.steps[0]?.flow_media_id), '--sandbox', '--json']),
    ) as { workflow_id?: string; flow_workflow_id?: string };
    expect(second?.source).toBe(firstExtension.flow_workflow_id ?? firstExtension.workflow_id);
    expect(second?.source).not.toBe(source.flow_workflow_id);
    // The extension is 7 s (the simulator's default, as §10's capture): its last second is 145–168.
    expect(second?.window).toEqual([145, 168]);

    // 8 s + 7 s + 7 s, less the second each extension repeats: 20 s, 480 frames at 24 fps.
    const decoded = await demuxed(long);
    expect(decoded.frames).toBe(480);
    expect(decoded.seconds).toBeCloseTo(20, 1);
    expect(movie.output).toMatchObject({ path: long, frames: 480 });
    const clips = timelineClips(String(movie.timeline));
    expect(clips.map((c) => c.metadata.gflow.media_id)).toEqual([
      source.flow_media_id,
      movie.steps[0]?.flow_media_id,
      movie.steps[1]?.flow_media_id,
    ]);
    expect(clips.map((c) => c.source_range.duration.value)).toEqual([168, 144, 168]);
  }, 300_000);
});

describe('video chain --stitch', () => {
  it('joins the links once all are made, nothing cut, with the timeline beside the file', async () => {
    const file = path.join(e2e.home, 'two.jsonl');
    fs.writeFileSync(file, ['{"prompt": "a kite rises"}', '{"prompt": "the kite loops"}'].join('\n'));
    const out = path.join(e2e.home, 'kite.mp4');
    const args = ['video', 'chain', file, '-y', '--stitch', '-o', out, '--jitter', '0', '--aspect', '16:9'];
    const r = await e2e.cli([...args, '--sandbox', '--json', '--progress', 'off'], { timeoutMs: 300_000 });
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    const chain = json(r) as unknown as {
      status: string;
      links: Array<{ flow_media_id: string }>;
      output: { path: string; frames: number; seconds: number };
      timeline: string;
    };
    expect(chain.status).toBe('completed');
    const clips = timelineClips(chain.timeline);
    expect(clips.map((c) => c.metadata.gflow.media_id)).toEqual(chain.links.map((l) => l.flow_media_id));
    const lengths = clips.map((c) => c.source_range.duration.value);
    const decoded = await demuxed(out);
    expect(decoded.frames).toBe(lengths.reduce((a, b) => a + b, 0));
    expect(chain.output).toMatchObject({ path: out, frames: decoded.frames });
  }, 300_000);
});

describe('movie', () => {
  async function storyboard(name: string, body: string): Promise<string> {
    const file = path.join(e2e.home, name);
    fs.writeFileSync(file, body);
    return file;
  }

  it('plans, then makes a 3-scene movie through a SIGKILL and a resume: exactly the planned submits, the movie and its timeline', async () => {
    const base = await made(['video', 't2v', 'the keeper lights the lamp', '--aspect', '16:9']);
    const { entityId } = e2e.sim.scenario.addCharacter(base.flow_project_id, { displayName: 'Mara' });
    expect(entityId).toBeTruthy();
    const prompts = [
      'scene one: a lighthouse on a cliff at dawn',
      'scene one goes on: the camera climbs',
      'scene two: the keeper walks down the stairs',
      'scene three: Mara watches the storm',
    ];
    const file = await storyboard(
      'story.yaml',
      [
        'title: The keeper',
        `project: ${base.flow_project_id}`,
        'model: veo_lite',
        'scenes:',
        `  - prompt: "${prompts[0]}"`,
        `    extend: ["${prompts[1]}"]`,
        '  - start: previous',
        `    prompt: "${prompts[2]}"`,
        '  - characters: [Mara]',
        `    prompt: "${prompts[3]}"`,
        '    duration: 8',
      ].join('\n'),
    );
    e2e.sim.received.clear();
    const movies = runRows(e2e.dbPath, 'story').length;

    const plan = await e2e.cli(['movie', 'plan', file, '--sandbox', '--json']);
    expect(plan.exitCode, plan.stderr.slice(-2000)).toBe(0);
    const quoted = json(plan) as unknown as Movie;
    expect(quoted.status).toBe('estimated');
    expect(quoted.steps.map((s) => s.mode)).toEqual(['t2v', 'extend', 'i2v', 'r2v']);
    expect(submits(e2e.sim)).toEqual([]);
    expect(runRows(e2e.dbPath, 'story')).toHaveLength(movies);

    const out = path.join(e2e.home, 'keeper.mp4');
    const victim = e2e.spawn(['movie', 'run', file, '-y', '-o', out, '--jitter', '0', '--sandbox', '--json'], {
      env: ENV,
    });
    let movieId = '';
    try {
      const run = await waitFor(
        'the movie past its second clip',
        () => runRows(e2e.dbPath, 'story').find((r) => r.status !== 'completed' && r.steps.length >= 3),
        240_000,
        20,
      );
      movieId = run.task_id;
      victim.killGroup();
      await victim.done;
    } finally {
      victim.killGroup();
    }
    const resumed = await e2e.cli(['movie', 'run', '--resume-from', movieId, '-y', '--sandbox', '--json'], {
      env: ENV,
      timeoutMs: 300_000,
    });
    const movie = json(resumed) as unknown as Movie;
    expect(movie.status, JSON.stringify(movie).slice(0, 3000)).toBe('completed');
    for (const prompt of prompts)
      expect(e2e.sim.received.submits().filter((c) => String(c.inner).includes(prompt)).length, prompt).toBe(1);
    expect(e2e.sim.received.submits()).toHaveLength(4);
    // The r2v scene sent the saved character it named.
    const r2v = e2e.sim.received.submits().find((c) => String(c.inner).includes(prompts[3] as string));
    expect(String(r2v?.inner)).toContain(entityId);
    expect(fs.existsSync(out)).toBe(true);
    const clips = timelineClips(String(movie.timeline));
    expect(clips).toHaveLength(4);
    expect(clips.map((c) => c.metadata.gflow.prompt)).toEqual(prompts);
    expect(clips.every((c) => c.media_references.DEFAULT_MEDIA.target_url.startsWith('file://'))).toBe(true);
    const decoded = await demuxed(out);
    expect(decoded.seconds).toBeCloseTo(movie.output?.seconds ?? 0, 1);
    expect(decoded.frames).toBe(movie.output?.frames);
  }, 600_000);

  it('refuses a storyboard with a problem naming its scene and field, sending nothing; an existing movie file without --force', async () => {
    e2e.sim.received.clear();
    const run = async (body: string) => {
      const file = await storyboard('bad.yaml', body);
      return e2e.cli(['movie', 'run', file, '-y', '--sandbox', '--json']);
    };
    const missing = await run('scenes:\n  - prompt: a\n  - start: ./nowhere.png\n    prompt: b\n');
    expect(missing.exitCode).toBe(2);
    expect(json(missing)).toMatchObject({ error: { parameter: 'scenes[1].start' } });

    const field = await run('scenes:\n  - prompt: a\n    durration: 8\n');
    expect(field.exitCode).toBe(2);
    expect(String((json(field) as { error: { detail: string } }).error.detail)).toMatch(/scenes\[0\]/);

    const unknown = await run('scenes:\n  - media_id: 0a1b2c3d-0000-4000-8000-00000000ffff\n    extend: [go on]\n');
    expect(unknown.exitCode).toBe(32);
    expect(json(unknown)).toMatchObject({ error: { parameter: 'scenes[0].media_id' } });

    const nobody = await run('scenes:\n  - characters: [Nobody]\n    prompt: a\n');
    expect(nobody.exitCode).toBe(2);
    expect(json(nobody)).toMatchObject({ error: { parameter: 'scenes[0].characters' } });

    const taken = path.join(e2e.home, 'taken.mp4');
    fs.writeFileSync(taken, 'not a movie');
    const file = await storyboard('ok.yaml', 'scenes:\n  - prompt: a calm sea\n');
    const exists = await e2e.cli(['movie', 'run', file, '-y', '-o', taken, '--sandbox', '--json']);
    expect(exists.exitCode).not.toBe(0);
    expect(exists.stderr + exists.stdout).toMatch(/already exists/);
    expect(fs.readFileSync(taken, 'utf8')).toBe('not a movie');

    expect(submits(e2e.sim)).toEqual([]);
  }, 120_000);
});
