// The gallery's movie pages through the daemon's own Hono app (in process, a real home and SQLite
// catalog): the list, a movie's page (a hostile title and prompt stay text), the stitched file with
// byte ranges and the timeline as a download; an unknown id, a refused file and an unfinished movie
// get no file and no player.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Gflow, createGflow } from '@gflow/core';
import { ContentPolicyError } from '@gflow/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GflowHttpApp, createGflowHttpApp } from '../createGflowHttpApp.js';

const CLAIMANT = 'library:ana:1:test';
const SEA = 'c0000000-0000-4000-8000-000000000001';
const HOSTILE = `<script>window.__xss=1</script> "the sea" & <img src=x onerror=alert(1)>`;
const MP4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypisom', 'latin1'), Buffer.alloc(1000, 7)]);

let home: string;
let gflow: Gflow;
let http: GflowHttpApp;

/** A story run's request as the runner stores it: one scene, a new clip and its extension. */
function storyPayload(taskId: string, title: string, output: string): Record<string, unknown> {
  return {
    schema_version: 2,
    kind: 'run',
    run: 'story',
    task_id: taskId,
    command: 'movie run',
    surface: 'cli',
    profile: 'ana',
    jitter: { min_ms: 0, max_ms: 0 },
    project: null,
    title,
    scenes: [
      { clip: { from: 'generate', input: { prompt: HOSTILE }, start: null }, extends: [{ prompt: 'on' }], title: null },
    ],
    out_dir: path.dirname(output),
    output,
    overwrite: false,
    overlap: 1,
  };
}

/** A finished movie: its row completed with the envelope the runner writes, its file and timeline on disk. */
function completedMovie(movieId: string, output: string): void {
  const { tasks } = gflow.catalog;
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, MP4);
  fs.writeFileSync(output.replace(/\.mp4$/, '.otio'), '{"OTIO_SCHEMA":"Timeline.1"}');
  tasks.create({ taskId: movieId, profile: 'ana', taskType: 'story', payload: storyPayload(movieId, HOSTILE, output) });
  tasks.claim(movieId, CLAIMANT);
  const step = (index: number, mode: string, prompt: string) => ({
    index,
    scene: 0,
    mode,
    prompt,
    status: 'done',
    task_id: `s${index}`,
    flow_media_id: index === 0 ? SEA : null,
  });
  tasks.complete(movieId, CLAIMANT, {
    status: 'completed',
    movie_id: movieId,
    title: HOSTILE,
    flow_project_id: null,
    steps: [step(0, 't2v', HOSTILE), step(1, 'extend', 'on')],
    made: 2,
    exit_code: 0,
    credits_quoted: null,
    output: { path: output, seconds: 14, frames: 336, bytes: MP4.length, sha256: 'x' },
    timeline: output.replace(/\.mp4$/, '.otio'),
    clips: [
      { scene: 0, step: 0, media_id: SEA, prompt: HOSTILE, file: '/m/0.mp4', in_seconds: 0, out_seconds: 7 },
      { scene: 0, step: 1, media_id: null, prompt: 'on', file: '/m/1.mp4', in_seconds: 0, out_seconds: 7.5 },
    ],
  });
}

const get = (url: string, headers: Record<string, string> = {}) =>
  http.fetch(new Request(`http://127.0.0.1:8000${url}`, { headers: { host: '127.0.0.1:8000', ...headers } }));

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-http-movies-'));
  const env = { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'), GFLOW_CLI_LOG_LEVEL: 'ERROR' };
  gflow = await createGflow({ surface: 'http', env, cwd: home }).ready();
  http = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000 });
  completedMovie('movie-done', path.join(gflow.settings.outputDir, 'movies', 'movie-done', 'movie.mp4'));
  // Its row says the file is elsewhere than the run was asked to write it: never served.
  completedMovie('movie-moved', path.join(gflow.settings.outputDir, 'movies', 'movie-moved', 'movie.mp4'));
  const result = gflow.catalog.tasks.get('movie-moved')?.result as { output: { path: string } };
  result.output.path = path.join(home, 'secret.mp4');
  fs.writeFileSync(result.output.path, MP4);
  gflow.catalog.database
    .prepare('UPDATE generation_queue SET result_json = ? WHERE task_id = ?')
    .run(JSON.stringify(result), 'movie-moved');
  // A movie still running: its first step done, the second under way.
  const output = path.join(gflow.settings.outputDir, 'running.mp4');
  gflow.catalog.tasks.create({
    taskId: 'movie-running',
    profile: 'ana',
    taskType: 'story',
    payload: storyPayload('movie-running', 'Still going', output),
  });
  gflow.catalog.tasks.claim('movie-running', CLAIMANT);
  failedMovie();
});

/** A movie whose first clip Flow refused: the step and the run failed. */
function failedMovie(): void {
  const { tasks } = gflow.catalog;
  const output = path.join(gflow.settings.outputDir, 'failed.mp4');
  tasks.create({
    taskId: 'movie-failed',
    profile: 'ana',
    taskType: 'story',
    payload: storyPayload('movie-failed', 'F', output),
  });
  tasks.claim('movie-failed', CLAIMANT);
  const step = tasks.create({
    profile: 'ana',
    taskType: 't2v',
    payload: {},
    parent: { taskId: 'movie-failed', stepIndex: 0 },
  });
  tasks.claim(step.taskId, CLAIMANT);
  const refusal = new ContentPolicyError('Flow refused <b>this</b> prompt.');
  tasks.fail(step.taskId, CLAIMANT, refusal);
  tasks.fail('movie-failed', CLAIMANT, refusal);
}

afterAll(async () => {
  await http?.close();
  await gflow?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the gallery: movies', () => {
  it('lists the movies, newest first, from the navigation; titles stay text', async () => {
    const page = await get('/movies');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('<a href="/movies" aria-current="page">Movies</a>');
    expect([...text.matchAll(/data-movie-id="([\w-]+)"/g)].map((m) => m[1])).toEqual([
      'movie-failed',
      'movie-running',
      'movie-moved',
      'movie-done',
    ]);
    expect(text).not.toContain('<script>window');
    expect(text).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(text).toContain('<a href="/movies/movie-done">');
    expect(text).toMatch(/<td>14 s<\/td>/);
  });

  it("a finished movie's page plays it, offers its timeline and lists its steps and clips, escaped", async () => {
    const page = await get('/movies/movie-done');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toMatch(/<video\s+src="\/movies\/movie-done\/file"\s+controls/);
    expect(text).toContain('href="/movies/movie-done/timeline" download');
    expect(text).not.toMatch(/<script>|<img src=x/);
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain(`<a href="/media/${SEA}"><code>${SEA}</code></a>`);
    expect(text.match(/data-step="\d"/g)).toEqual(['data-step="0"', 'data-step="1"']);
    expect(text).toContain('<td>7.5 s</td>');
  });

  it('streams the stitched file as video/mp4 with byte ranges, and the timeline as a JSON download', async () => {
    const whole = await get('/movies/movie-done/file');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(MP4);
    const part = await get('/movies/movie-done/file', { range: 'bytes=4-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${MP4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('ftypisom');
    const timeline = await get('/movies/movie-done/timeline');
    expect(timeline.status).toBe(200);
    expect(timeline.headers.get('content-type')).toBe('application/json');
    expect(timeline.headers.get('content-disposition')).toBe('attachment; filename="movie-done.otio"');
    expect(await timeline.json()).toEqual({ OTIO_SCHEMA: 'Timeline.1' });
  });

  it('answers 404 for an unknown id, a refused file, a path for an id; a moved file has no player', async () => {
    for (const url of [
      '/movies/no-such-movie/file',
      '/movies/movie-moved/file',
      '/movies/movie-running/file',
      '/movies/movie-running/timeline',
      `/movies/${encodeURIComponent('../../etc/passwd')}/file`,
    ])
      expect((await get(url)).status, url).toBe(404);
    const unknown = await get('/movies/no-such-movie');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No movie no-such-movie');
    const moved = await (await get('/movies/movie-moved')).text();
    expect(moved).not.toContain('<video');
    expect(moved).toContain('no longer where the movie was written');
  });

  it('a running movie shows its steps and status, no player', async () => {
    const text = await (await get('/movies/movie-running')).text();
    expect(text).not.toContain('<video');
    expect(text).toContain('This movie is running');
    expect(text.match(/data-status="(\w+)"/g)).toEqual(['data-status="pending"', 'data-status="pending"']);
  });

  it("a failed movie shows the failed step's error title and detail as text, no player", async () => {
    const text = await (await get('/movies/movie-failed')).text();
    expect(text).not.toContain('<video');
    expect(text).toContain('This movie is failed');
    expect(text).toMatch(
      /data-step="0" data-status="failed"[\s\S]*<strong class="error">Content Policy Refusal<\/strong>/,
    );
    expect(text).toContain('Flow refused &lt;b&gt;this&lt;/b&gt; prompt.');
    expect(text).toContain('Stopped: Content Policy Refusal');
    expect(text).toContain('gflow movie run --resume-from movie-failed');
  });
});
