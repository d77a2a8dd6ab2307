// Fleet throughput against one machine (issue 46), measured side by side in one run with the
// simulator's latency fixed: the same number of image runs (a) on one machine the embedded way
// (`gflow image t2i --no-wait` into its SQLite queue, drained by its background worker), and (b)
// submitted to the fleet (`--fleet`) served by 1, 2 and 3 worker machines (separate processes,
// homes and profiles, each its own simulated account). Runs per minute from the first submit to
// the last run settled. Everything is the real binary against one simulator and one throw-away
// PostgreSQL on this machine, so the workers share its cores: the scaling it shows is a floor.
// The default latency is Flow's own measured times (1): a generation then waits on Flow far longer
// than it computes, as it does for real, so what the workers share is mostly the waiting; a lower
// latency (second argument) turns the run into a contest for this machine's CPU instead.
//   pnpm --filter @gflow/fleet run bench:fleet [runs] [latency]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cli, json } from '@gflow/testkit/cli';
import { waitFor } from '@gflow/testkit';
import { type FleetWorker, fleetWorker } from '@gflow/testkit/fleet';
import { startPostgres } from '@gflow/tooling/postgres';
import { startSandbox } from '@gflow/testkit/sandbox';

const RUNS = Number(process.argv[2] ?? 12);
/** The simulator's latency as a fraction of the times measured on Flow (fixed for every configuration). */
const LATENCY = Number(process.argv[3] ?? 1);

const cluster = await startPostgres();
const sandbox = await startSandbox({ seed: 'bench-fleet', latency: LATENCY });
const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-fleet-bench-'));
const workers: FleetWorker[] = [];

async function settledCount(ids: readonly string[]): Promise<number> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM gflow.tasks WHERE task_id = ANY($1) AND status = 'completed'",
      [ids],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** Submits RUNS image runs to the fleet, round robin over `profiles`; minutes until all completed. */
async function fleetRound(profiles: readonly string[], label: string): Promise<number> {
  const started = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await cli(
      [
        'image',
        't2i',
        `a bench lighthouse ${label} ${i}`,
        '--profile',
        profiles[i % profiles.length] as string,
        '--no-wait',
        '--json',
        '--fleet',
        cluster.url,
      ],
      { env: { GFLOW_CLI_OUTPUT_DIR: shared } },
    );
    if (r.exitCode !== 0) throw new Error(`submit failed: ${r.stderr.slice(-2000)}`);
    ids.push(String(json(r)['task_id']));
  }
  await waitFor(`${label} to complete`, async () => (await settledCount(ids)) === RUNS, 900_000, 500);
  return (Date.now() - started) / 60_000;
}

/** The same runs on one machine without a fleet: its own queue, drained by its background worker. */
async function oneMachineRound(worker: FleetWorker): Promise<number> {
  const env = sandbox.env({ GFLOW_CLI_SANDBOX_OUTPUT_DIR: shared });
  const started = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await cli(
      ['image', 't2i', `a bench harbour ${i}`, '--profile', 'b1', '--no-wait', '--sandbox', '--json'],
      {
        home: worker.home,
        env,
      },
    );
    if (r.exitCode !== 0) throw new Error(`submit failed: ${r.stderr.slice(-2000)}`);
    ids.push(String(json(r)['task_id']));
  }
  for (const id of ids) {
    const r = await cli(['task', 'wait', id, '--sandbox', '--json'], { home: worker.home, env, timeoutMs: 900_000 });
    if (r.exitCode !== 0) throw new Error(`run ${id} failed: ${r.stderr.slice(-2000)}`);
  }
  return (Date.now() - started) / 60_000;
}

try {
  workers.push(
    ...(await Promise.all(
      ['b1', 'b2', 'b3'].map((p, i) => fleetWorker(sandbox, cluster.url, shared, { name: `m${i + 1}`, profiles: [p] })),
    )),
  );
  const one = await oneMachineRound(workers[0] as FleetWorker);
  const rows: Array<{ what: string; minutes: number }> = [{ what: 'one machine (no fleet)', minutes: one }];
  for (let n = 1; n <= 3; n++) {
    await (workers[n - 1] as FleetWorker).start();
    const profiles = workers.slice(0, n).flatMap((w) => w.profiles);
    rows.push({ what: `fleet, ${n} worker${n > 1 ? 's' : ''}`, minutes: await fleetRound(profiles, `n${n}`) });
  }
  const rate = (m: number): number => RUNS / m;
  const lines = [
    '# Fleet throughput (@gflow/fleet)',
    '',
    `${RUNS} image runs per configuration; simulator latency ${LATENCY} × Flow's measured times; one machine (${os.cpus().length} cores) hosts every worker, the simulator and PostgreSQL. Node ${process.version}.`,
    '',
    '| configuration | runs per minute | × one machine |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${rate(r.minutes).toFixed(1)} | ${(rate(r.minutes) / rate(one)).toFixed(2)} |`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(import.meta.dirname, 'FLEET.md'), `${lines.join('\n')}\n`);
} finally {
  await Promise.all(workers.map((w) => w.close()));
  await sandbox.close();
  await cluster.close();
  fs.rmSync(shared, { recursive: true, force: true });
}
