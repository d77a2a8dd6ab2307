// The gallery's movies with a real SQLite catalog: story runs written as the runner writes them (a
// run row, a child row per step, the settled envelope), listed newest first with their clip count
// and length; a movie's page shows each step (a failed one with its error's title) and the clips;
// and only the stitched file a completed row recorded, where the run wrote it, is ever served.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Catalog, type TaskQueue, openCatalog, sqliteTaskQueue } from '@gflow/catalog';
import { ContentPolicyError } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { generateVideoInput } from '../generation/schemas.js';
import { RUN_REQUEST_VERSION, runRequest } from '../runs/runRequest.js';
import { servableMovieFile } from './galleryFiles.js';
import { galleryMovieDetail, galleryMovies } from './galleryMovies.js';

/** The catalog's own queue behind the port, as the runtime reads it. */
const queueOf = (catalog: Catalog): TaskQueue => sqliteTaskQueue(() => catalog.tasks);

const CLAIMANT = 'library:ana:1:test';
const SEA = 'c0000000-0000-4000-8000-000000000001';
const WAVE = 'c0000000-0000-4000-8000-000000000002';
/** Enough of an MP4 for its magic bytes (`ftyp` at 4–8). */
const MP4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypisom', 'latin1'), Buffer.alloc(48)]);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function world(): { catalog: Catalog; root: string; outputDir: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-movies-')));
  dirs.push(root);
  const outputDir = path.join(root, 'output');
  fs.mkdirSync(outputDir);
  return { catalog: openCatalog({ path: path.join(root, 'gflow.db') }), root, outputDir };
}

/** A story run's request: one scene (a new clip and its extension), the movie at `output`. */
function storyPayload(taskId: string, title: string, output: string) {
  return runRequest.parse({
    schema_version: RUN_REQUEST_VERSION,
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
      {
        clip: { from: 'generate', input: generateVideoInput.parse({ prompt: 'a calm sea' }), start: null },
        extends: [{ prompt: 'a wave <script>rises</script>' }],
        title: 'Sea',
      },
    ],
    out_dir: path.dirname(output),
    output,
    overwrite: false,
    overlap: 1,
  }) as unknown as Record<string, unknown>;
}

/** A step's row, settled as the runner settles it. */
function step(catalog: Catalog, movieId: string, index: number, outcome: 'done' | 'failed' | 'running') {
  const row = catalog.tasks.create({
    profile: 'ana',
    taskType: index === 0 ? 't2v' : 'extend',
    payload: {},
    parent: { taskId: movieId, stepIndex: index },
  });
  catalog.tasks.claim(row.taskId, CLAIMANT);
  const media = index === 0 ? SEA : WAVE;
  if (outcome === 'done')
    catalog.tasks.complete(row.taskId, CLAIMANT, {
      status: 'completed',
      flow_media_id: media,
      files: [`/m/${index}.mp4`],
    });
  if (outcome === 'failed')
    catalog.tasks.fail(row.taskId, CLAIMANT, new ContentPolicyError('Flow refused the prompt.'));
}

/** A movie made whole: both steps done, the file and its timeline written, the row completed with its envelope. */
function completedMovie(catalog: Catalog, movieId: string, output: string, title = 'The sea') {
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, MP4);
  const timeline = output.replace(/\.mp4$/i, '.otio');
  fs.writeFileSync(timeline, '{"OTIO_SCHEMA":"Timeline.1"}');
  catalog.tasks.create({
    taskId: movieId,
    profile: 'ana',
    taskType: 'story',
    payload: storyPayload(movieId, title, output),
  });
  catalog.tasks.claim(movieId, CLAIMANT);
  step(catalog, movieId, 0, 'done');
  step(catalog, movieId, 1, 'done');
  const clip = (s: number, media: string, prompt: string, out: number) => ({
    scene: 0,
    step: s,
    media_id: media,
    prompt,
    file: `/m/${s}.mp4`,
    in_seconds: 0,
    out_seconds: out,
  });
  catalog.tasks.complete(movieId, CLAIMANT, {
    status: 'completed',
    movie_id: movieId,
    title,
    flow_project_id: null,
    steps: [
      { index: 0, scene: 0, mode: 't2v', prompt: 'a calm sea', status: 'done', task_id: 's0', flow_media_id: SEA },
      { index: 1, scene: 0, mode: 'extend', prompt: 'a wave', status: 'done', task_id: 's1', flow_media_id: WAVE },
    ],
    made: 2,
    exit_code: 0,
    credits_quoted: null,
    output: { path: output, seconds: 14, frames: 336, bytes: MP4.length, sha256: 'x' },
    timeline,
    clips: [clip(0, SEA, 'a calm sea', 7), clip(1, WAVE, 'a wave', 7)],
  });
  return { timeline };
}

/** Rewrites a completed row's request and envelope (a hand-edited or damaged catalog). */
function tamper(
  catalog: Catalog,
  movieId: string,
  change: (row: { payload: Record<string, unknown>; result: Record<string, unknown> }) => void,
): void {
  const record = catalog.tasks.get(movieId);
  const row = structuredClone({ payload: record?.payload, result: record?.result }) as {
    payload: Record<string, unknown>;
    result: Record<string, unknown>;
  };
  change(row);
  catalog.database
    .prepare('UPDATE generation_queue SET payload_json = ?, result_json = ? WHERE task_id = ?')
    .run(JSON.stringify(row.payload), JSON.stringify(row.result), movieId);
}

describe('gallery movies', () => {
  it('lists movies newest first with their status, clip count and length, and pages them', async () => {
    const { catalog, outputDir } = world();
    completedMovie(catalog, 'movie-old', path.join(outputDir, 'movies', 'old', 'movie.mp4'), 'Old');
    catalog.tasks.create({
      taskId: 'movie-new',
      profile: 'ana',
      taskType: 'story',
      payload: storyPayload('movie-new', 'New', path.join(outputDir, 'new.mp4')),
    });
    catalog.tasks.create({ profile: 'ana', taskType: 't2i', payload: { input: { prompt: 'not a movie' } } });
    const page = await galleryMovies(queueOf(catalog));
    expect(page).toMatchObject({ matched: 2, complete: true });
    expect(page.items.map((m) => [m.movie_id, m.title, m.status, m.clip_count, m.seconds])).toEqual([
      ['movie-new', 'New', 'pending', 2, null],
      ['movie-old', 'Old', 'completed', 2, 14],
    ]);
    expect(await galleryMovies(queueOf(catalog), { limit: 1 })).toMatchObject({
      matched: 2,
      items: [{ movie_id: 'movie-new' }],
    });
    catalog.close();
  });

  it("a movie's page: its steps, its clips in order, and its file and timeline playable", async () => {
    const { catalog, outputDir } = world();
    completedMovie(catalog, 'movie-1', path.join(outputDir, 'movies', 'movie-1', 'movie.mp4'));
    const movie = await galleryMovieDetail(queueOf(catalog), 'movie-1', outputDir);
    expect(movie).toMatchObject({ title: 'The sea', status: 'completed', playable: true, timeline_servable: true });
    expect(movie?.steps.map((s) => [s.mode, s.status, s.flow_media_id, s.error_title])).toEqual([
      ['t2v', 'done', SEA, null],
      ['extend', 'done', WAVE, null],
    ]);
    expect(movie?.clips.map((c) => [c.media_id, c.in_seconds, c.out_seconds])).toEqual([
      [SEA, 0, 7],
      [WAVE, 0, 7],
    ]);
    expect(await galleryMovieDetail(queueOf(catalog), 'no-such-movie', outputDir)).toBeUndefined();
    expect(await galleryMovieDetail(queueOf(catalog), '../etc', outputDir)).toBeUndefined();
    catalog.close();
  });

  it('a running or failed movie shows its steps as far as they got, the failed one with its title, and no player', async () => {
    const { catalog, outputDir } = world();
    const output = path.join(outputDir, 'failed.mp4');
    catalog.tasks.create({
      taskId: 'movie-f',
      profile: 'ana',
      taskType: 'story',
      payload: storyPayload('movie-f', 'F', output),
    });
    catalog.tasks.claim('movie-f', CLAIMANT);
    step(catalog, 'movie-f', 0, 'done');
    step(catalog, 'movie-f', 1, 'running');
    const running = await galleryMovieDetail(queueOf(catalog), 'movie-f', outputDir);
    expect(running?.steps.map((s) => s.status)).toEqual(['done', 'running']);
    expect(running).toMatchObject({ status: 'running', playable: false, output: null, error_title: null });
    const attempt = catalog.tasks.steps('movie-f')[1];
    catalog.tasks.fail(attempt?.taskId ?? '', CLAIMANT, new ContentPolicyError('Flow refused the prompt.'));
    catalog.tasks.fail('movie-f', CLAIMANT, new ContentPolicyError('Flow refused the prompt.'));
    const failed = await galleryMovieDetail(queueOf(catalog), 'movie-f', outputDir);
    expect(failed).toMatchObject({ status: 'failed', playable: false, error_title: 'Content Policy Refusal' });
    expect(failed?.steps[1]).toMatchObject({ status: 'failed', error_title: 'Content Policy Refusal' });
    expect(failed?.steps[1]?.error_detail).toContain('Flow refused the prompt.');
    expect((await galleryMovies(queueOf(catalog))).items[0]).toMatchObject({
      status: 'failed',
      clip_count: 2,
      seconds: null,
    });
    catalog.close();
  });
});

describe("a movie's served files", () => {
  it('serves the recorded MP4 (video/mp4) and timeline (application/json) inside the output directory', async () => {
    const { catalog, outputDir } = world();
    const output = path.join(outputDir, 'movies', 'm', 'movie.mp4');
    const { timeline } = completedMovie(catalog, 'movie-1', output);
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir)).toEqual({
      path: output,
      bytes: MP4.length,
      mimeType: 'video/mp4',
    });
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir, 'timeline')).toMatchObject({
      path: timeline,
      mimeType: 'application/json',
    });
    expect(await servableMovieFile(queueOf(catalog), 'unknown', outputDir)).toBeUndefined();
    expect(await servableMovieFile(queueOf(catalog), '../../etc/passwd', outputDir)).toBeUndefined();
    catalog.close();
  });

  it('serves a movie written outside the output dir (-o) only from the directory the run wrote it into', async () => {
    const { catalog, root, outputDir } = world();
    const mine = path.join(root, 'mine');
    const output = path.join(mine, 'story.mp4');
    completedMovie(catalog, 'movie-o', output);
    expect((await servableMovieFile(queueOf(catalog), 'movie-o', outputDir))?.path).toBe(output);
    // Swapped for a link that leads elsewhere (even below that directory): refused.
    fs.mkdirSync(path.join(mine, 'sub'));
    fs.writeFileSync(path.join(mine, 'sub', 'secret.mp4'), MP4);
    fs.rmSync(output);
    fs.symlinkSync(path.join(mine, 'sub', 'secret.mp4'), output);
    expect(await servableMovieFile(queueOf(catalog), 'movie-o', outputDir)).toBeUndefined();
    catalog.close();
  });

  it('refuses a recorded path replaced by one outside, a directory, a non-.mp4, a changed or missing file, an unfinished movie', async () => {
    const { catalog, root, outputDir } = world();
    const output = path.join(outputDir, 'movie.mp4');
    completedMovie(catalog, 'movie-1', output);
    const outside = path.join(root, 'secret.mp4');
    fs.writeFileSync(outside, MP4);
    /** A second movie at the same place, its row changed by `change`: what would be served of it. */
    const servedAfter = async (
      change: (row: { payload: Record<string, unknown>; result: Record<string, unknown> }) => void,
      part: 'movie' | 'timeline' = 'movie',
    ) => {
      completedMovie(catalog, 'movie-t', output);
      tamper(catalog, 'movie-t', change);
      const served = await servableMovieFile(queueOf(catalog), 'movie-t', outputDir, part);
      catalog.database
        .prepare("DELETE FROM generation_queue WHERE task_id = 'movie-t' OR parent_task_id = 'movie-t'")
        .run();
      return served;
    };
    expect(await servedAfter(() => undefined)).toBeDefined();
    const outputOf = (row: { result: Record<string, unknown> }) => row.result['output'] as Record<string, unknown>;
    expect(await servedAfter((row) => (outputOf(row)['path'] = outside))).toBeUndefined();
    expect(
      await servedAfter((row) => (row.result['timeline'] = outside.replace(/mp4$/, 'otio')), 'timeline'),
    ).toBeUndefined();
    expect(await servedAfter((row) => (row.result['status'] = 'failed'))).toBeUndefined();
    expect(await servedAfter((row) => (outputOf(row)['bytes'] = null))).toBeUndefined();
    // Named so by the request and the result alike: a directory, a file that is not an .mp4.
    const dir = path.join(outputDir, 'dir.mp4');
    fs.mkdirSync(dir);
    const text = path.join(outputDir, 'movie.txt');
    fs.writeFileSync(text, MP4);
    for (const other of [dir, text])
      expect(await servedAfter((row) => (row.payload['output'] = outputOf(row)['path'] = other))).toBeUndefined();
    // Bytes that are not an MP4, a changed size, a missing file: refused.
    fs.writeFileSync(output, Buffer.alloc(MP4.length));
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir)).toBeUndefined();
    fs.writeFileSync(output, Buffer.concat([MP4, MP4]));
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir)).toBeUndefined();
    fs.rmSync(output);
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir)).toBeUndefined();
    expect(await galleryMovieDetail(queueOf(catalog), 'movie-1', outputDir)).toMatchObject({
      status: 'completed',
      playable: false,
    });
    // The timeline follows the same rule: a directory in its place is not served.
    fs.rmSync(output.replace(/\.mp4$/, '.otio'));
    fs.mkdirSync(output.replace(/\.mp4$/, '.otio'));
    expect(await servableMovieFile(queueOf(catalog), 'movie-1', outputDir, 'timeline')).toBeUndefined();
    catalog.close();
  });
});
