// Journey (issue 46): gflow beyond one machine. A real PostgreSQL; three worker machines as
// separate processes with homes of their own, each holding different sandbox profiles (each its
// own simulated account; `twin` is one account signed in on two machines); a front door
// (`gflow serve --fleet`) and CLI runs with --fleet. Runs go to whichever worker holds their
// profile, or to the pool's profile that can take them; files land in the shared output location
// and the front door's MCP resources read them from there. A pool run Flow refuses for quota moves
// on; a worker SIGKILLed mid-run loses nothing and no step is submitted twice (the simulator
// counts what it received); without --fleet nothing of this is seen.
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, jsonLines, removeDir, tempDir, waitFor } from '@gflow/testkit';
import { type CliResult, type ServeProcess, cli, startServe } from '@gflow/testkit/cli';
import { type FleetWorker, accountOf, fleetWorker } from '@gflow/testkit/fleet';
import { type McpConnection, connectHttp } from '@gflow/testkit/mcp';
import { usePostgres } from '@gflow/testkit/postgres';
import { useSandbox } from '@gflow/testkit/sandbox';

const db = usePostgres();
const e2e = useSandbox({ seed: 'journey-fleet' });
const shared = tempDir('fleet-shared');
const frontHome = tempDir('fleet-front');
const workers: FleetWorker[] = [];
let serve: ServeProcess;
let mcp: McpConnection;

/** The front door's settings: the shared output location; no browser and no profile of its own. */
const front = { home: frontHome, env: { GFLOW_CLI_OUTPUT_DIR: shared, GFLOW_CLI_RATE_LIMIT_CAPACITY: '100' } };
const onFleet = (args: readonly string[]): Promise<CliResult> => cli([...args, '--fleet', db.url], front);
const why = (r: CliResult): string =>
  `exit ${r.exitCode}\n${r.stdout.slice(0, 1500)}\n${r.stderr.slice(-2500)}\n${workers.map((w) => `--- ${w.name}:\n${w.log().slice(-2500)}`).join('\n')}`;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The simulator's submits per account (every generation rpc it received). */
const submitsOf = (profile: string): number =>
  e2e.sim.received.submits().filter((s) => s.email === accountOf(profile)).length;

/** The media Flow made (generated, not uploaded) in every project of these profiles' accounts. */
const madeByFlow = (profiles: readonly string[]): string[] =>
  profiles.flatMap((p) =>
    e2e.sim.scenario
      .projectsOf(accountOf(p))
      .flatMap((project) => e2e.sim.scenario.mediaOf(project.id).map((m) => m.id)),
  );

beforeAll(async () => {
  // Three machines at once: each signs its profiles in, then serves them.
  const made = await Promise.all([
    fleetWorker(e2e, db.url, shared, { name: 'w1', profiles: ['p1'], pools: 'studio=p1' }),
    fleetWorker(e2e, db.url, shared, { name: 'w2', profiles: ['p2', 'twin'], pools: 'studio=p2' }),
    fleetWorker(e2e, db.url, shared, { name: 'w3', profiles: ['p3', 'twin'], pools: 'studio=p3' }),
  ]);
  workers.push(...made);
  await Promise.all(workers.map((w) => w.start()));
  serve = await startServe(['--fleet', db.url], front);
  mcp = await connectHttp(serve.url, { era: 'modern', stderr: () => serve.run.stderr() });
}, 420_000);

afterAll(async () => {
  await mcp?.close();
  await serve?.stop();
  await Promise.all(workers.map((w) => w.close()));
  removeDir(shared);
  removeDir(frontHome);
}, 90_000);

describe('a fleet of gflow workers on PostgreSQL', () => {
  it('three machines register their profiles; the fleet routes a pool by what each can take', async () => {
    const rows = await sql<{ profile_name: string; n: number }>(
      `SELECT profile_name, count(DISTINCT worker_id)::int AS n FROM gflow.fleet_profiles GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { profile_name: 'p1', n: 1 },
      { profile_name: 'p2', n: 1 },
      { profile_name: 'p3', n: 1 },
      { profile_name: 'twin', n: 2 },
    ]);
  });

  it('a pool run Flow refuses for quota moves to the next profile of the pool and completes there', async () => {
    e2e.sim.scenario.setFailure(accountOf('p1'), 'resource_exhausted', { times: 1 });
    const run = await onFleet(['image', 't2i', 'a harbour crane at dawn', '--profile-pool', 'studio', '--json']);
    expect(run.exitCode, why(run)).toBe(0);
    const result = json(run) as { status: string; task_id: string; files: string[] };
    expect(result.status).toBe('completed');
    const [row] = await sql<{ profile_name: string; routing: Array<{ profile: string; reason: string }> }>(
      'SELECT profile_name, routing FROM gflow.tasks WHERE task_id = $1',
      [result.task_id],
    );
    expect(row?.routing).toEqual([expect.objectContaining({ profile: 'p1', reason: 'insufficient-credits' })]);
    expect(row?.profile_name).toBe('p2');
    expect([submitsOf('p1'), submitsOf('p2')]).toEqual([1, 1]);
    expect(fs.existsSync(result.files[0] as string)).toBe(true);
  });

  it('30 runs (images, videos, batches, a chain, a movie) through MCP and the CLI all complete on the three machines', async () => {
    const ids: string[] = [];
    const viaMcp = async (tool: string, args: Record<string, unknown>): Promise<void> => {
      const reply = await mcp.call(tool, { ...args, wait: false });
      expect(reply.isError, JSON.stringify(reply.structured)).toBe(false);
      ids.push(String(reply.structured['task_id']));
    };
    const viaCli = async (args: readonly string[]): Promise<void> => {
      const r = await onFleet([...args, '--no-wait', '--json']);
      expect(r.exitCode, why(r)).toBe(0);
      ids.push(String((json(r) as { task_id: string }).task_id));
    };
    const named = ['p1', 'p2', 'p3'];
    for (let i = 0; i < 13; i++)
      await viaMcp('gflow_generate_image', { prompt: `a paper boat number ${i}`, profile: named[i % 3] });
    for (let i = 0; i < 2; i++)
      await viaMcp('gflow_generate_video', { prompt: `waves on a pier, take ${i}`, profile: named[(i % 2) + 1] });
    // A movie (a story run, its finish the stitch) of two scenes: its clips and its file on the worker that runs it.
    await viaMcp('gflow_make_movie', {
      storyboard: { title: 'pier', scenes: [{ prompt: 'waves on a pier' }, { prompt: 'gulls over the pier' }] },
      profile: 'p3',
    });
    const movieId = ids.at(-1) as string;
    // The chain (the longest run) on `twin`, a fourth lane the two machines holding it share.
    await viaMcp('gflow_generate_chain', {
      links: [{ prompt: 'a lantern is lit' }, { prompt: 'the lantern drifts away' }],
      profile: 'twin',
    });
    for (let i = 0; i < 10; i++)
      await viaCli(['image', 't2i', `a kite over dunes ${i}`, '--profile', named[i % 3] as string]);
    await viaMcp('gflow_generate_batch', {
      items: [{ prompt: 'a red door' }, { prompt: 'a blue door' }],
      profile: 'p1',
    });
    await viaMcp('gflow_generate_batch', {
      items: [{ prompt: 'a green gate' }, { prompt: 'a grey gate' }],
      profile: 'p2',
    });
    await viaCli(['video', 't2v', 'rain on a window', '--profile-pool', 'studio']);
    expect(new Set(ids).size).toBe(30);

    const settled = await waitFor(
      'the 30 runs to settle',
      async () => {
        const rows = await sql<{ task_id: string; status: string }>(
          'SELECT task_id, status FROM gflow.tasks WHERE task_id = ANY($1)',
          [ids],
        );
        return rows.every((r) => !['pending', 'working'].includes(r.status)) && rows.length === 30 ? rows : undefined;
      },
      300_000,
      500,
    );
    const failed = settled.filter((r) => r.status !== 'completed');
    const errors = failed.length
      ? await sql('SELECT task_id, error FROM gflow.tasks WHERE task_id = ANY($1) OR parent_task_id = ANY($1)', [
          failed.map((r) => r.task_id),
        ])
      : [];
    expect(
      failed,
      `${JSON.stringify(errors).slice(0, 3000)}\n${workers.map((w) => w.log().slice(-2000)).join('\n')}`,
    ).toEqual([]);
    const ran = await sql<{ worker: string; n: number }>(
      `SELECT split_part(claimant, ':', 4) AS worker, count(*)::int AS n FROM gflow.tasks WHERE task_id = ANY($1) GROUP BY 1`,
      [ids],
    );
    expect(ran.length).toBe(3);
    // The movie's finish ran where its run did: the stitched file and its timeline in the shared location.
    const [movie] = await sql<{ result: { output: { path: string; frames: number }; timeline: string } }>(
      'SELECT result FROM gflow.tasks WHERE task_id = $1',
      [movieId],
    );
    expect(movie?.result.output.path.startsWith(shared), JSON.stringify(movie?.result)).toBe(true);
    expect(movie?.result.output.frames).toBeGreaterThan(0);
    for (const file of [movie?.result.output.path, movie?.result.timeline])
      expect(fs.existsSync(String(file))).toBe(true);
    // Every media Flow made for the fleet's runs so far is published with its file: the 30 runs
    // make 34 (23 images, 3 videos, a movie's 2 clips, a chain's 2 clips, 2 batches of 2 images;
    // count 1 each) and the moved pool run 1. A worker publishes right after settling a row: wait for the shared catalog.
    const made = madeByFlow(['p1', 'p2', 'p3', 'twin']);
    expect(made.length).toBe(35);
    let published = new Set<string>();
    const media = await waitFor(
      'every run’s media in the shared catalog',
      async () => {
        const rows = await sql<{ flow_media_id: string; file_key: string }>(
          'SELECT flow_media_id, file_key FROM gflow.media WHERE file_key IS NOT NULL',
        );
        published = new Set(rows.map((r) => r.flow_media_id));
        return made.every((id) => published.has(id)) ? rows : undefined;
      },
      60_000,
      500,
    ).catch(() => []);
    expect(made.filter((id) => !published.has(id))).toEqual([]);
    expect(media.length).toBe(made.length);
    for (const { file_key } of media) expect(fs.existsSync(`${shared}/${file_key}`), file_key).toBe(true);

    // The front door reads what every machine published, from the shared location.
    const listed = (await mcp.client.listResources()).resources.filter((r) => r.uri.startsWith('gflow://media/'));
    expect(listed.length).toBeGreaterThan(10);
    const read = await mcp.client.readResource({ uri: listed[0]?.uri as string });
    const blob = (read.contents[0] as { blob?: string }).blob ?? '';
    expect(Buffer.from(blob, 'base64').length).toBeGreaterThan(1000);
  }, 420_000);

  it('a worker SIGKILLed mid-run loses nothing: another machine resumes the run and no step is submitted twice', async () => {
    e2e.sim.scenario.setFailure(accountOf('twin'), 'held_submit_reply', { times: 1 });
    const before = submitsOf('twin');
    const queued = await mcp.call('gflow_generate_batch', {
      items: [{ prompt: 'one swan' }, { prompt: 'two swans' }, { prompt: 'three swans' }],
      profile: 'twin',
      jitter: '0',
      wait: false,
    });
    expect(queued.isError, JSON.stringify(queued.structured)).toBe(false);
    const runId = String(queued.structured['task_id']);
    const step = await waitFor(
      'the first step to be submitted (its reply held)',
      async () =>
        (
          await sql<{ claimant: string; project_id: string }>(
            `SELECT claimant, checkpoint->>'project_id' AS project_id FROM gflow.tasks
             WHERE parent_task_id = $1 AND (checkpoint->>'may_have_spent')::boolean AND checkpoint->>'project_id' IS NOT NULL`,
            [runId],
          )
        )[0],
      120_000,
      200,
    );
    const holder = workers.find((w) => w.process !== undefined && step.claimant.includes(`:${w.process.pid}:`));
    expect(holder, step.claimant).toBeDefined();
    // The step's state is written before its click: kill only once Flow has the submit (and made
    // its image, which the simulator holds back with the reply until told).
    const made = await waitFor(
      'the held submit to reach Flow',
      () => e2e.sim.scenario.mediaOf(step.project_id).find((m) => m.prompt === 'one swan'),
      60_000,
      100,
    );
    holder?.kill();
    e2e.sim.scenario.setImageReady(made.id, true);

    const done = await waitFor(
      'the run to complete on the other machine',
      async () => {
        const [row] = await sql<{
          status: string;
          claimant: string;
          result: { items: Array<{ status: string; recovered?: boolean }> };
        }>('SELECT status, claimant, result FROM gflow.tasks WHERE task_id = $1', [runId]);
        return row && !['pending', 'working'].includes(row.status) ? row : undefined;
      },
      180_000,
      500,
    );
    expect(done.status, workers.map((w) => w.log().slice(-3000)).join('\n')).toBe('completed');
    expect(done.claimant).not.toContain(`:${step.claimant.split(':')[3]}`);
    expect(done.result.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
    expect(done.result.items.filter((i) => i.recovered === true)).toHaveLength(1);
    expect(submitsOf('twin') - before).toBe(3);
  }, 360_000);

  it('without --fleet nothing of the fleet is seen: the same commands use this machine’s own catalog', async () => {
    const local = await cli(['task', 'list', '--json'], front);
    expect(local.exitCode, why(local)).toBe(0);
    expect(jsonLines(local)).toEqual([]);
    const fleet = await onFleet(['task', 'list', '--json']);
    expect(jsonLines(fleet).length).toBeGreaterThan(10);
  });
});
