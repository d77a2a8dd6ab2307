// The queue's own overhead per step (issue 46), side by side in one run: the traffic one step of a
// run makes through the queue port — its row created under the run, claimed, its checkpoint
// written at each phase the generation path records (started, opening, configuring, submitting,
// submitted, generating, downloading), completed, and the run's steps read again — on the embedded
// SQLite queue (a catalog file with WAL) and on the fleet's PostgreSQL queue (a throw-away cluster
// on loopback, pg-boss included). Also one cancel poll (a `get`, twice a second while a step runs).
//   pnpm --filter @gflow/fleet run bench [steps]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type TaskQueue, openCatalog, sqliteTaskQueue } from '@gflow/catalog';
import { startPostgres } from '@gflow/tooling/postgres';
import { openFleet } from '../src/index.js';

const STEPS = Number(process.argv[2] ?? 200);
const PHASES = ['started', 'opening', 'configuring', 'submitting', 'submitted', 'generating', 'downloading'];

async function oneStep(queue: TaskQueue, runId: string, index: number, claimant: string): Promise<void> {
  const step = await queue.create({
    profile: 'bench',
    taskType: 't2i',
    payload: { prompt: `step ${index}` },
    parent: { taskId: runId, stepIndex: index },
  });
  await queue.claim(step.taskId, claimant);
  for (const phase of PHASES)
    await queue.updateCheckpoint(step.taskId, claimant, {
      phase,
      ...(phase === 'submitting' ? { may_have_spent: true, submitting_at: new Date().toISOString() } : {}),
      ...(phase === 'submitted' ? { media_ids: [`m-${index}`], project_id: 'p' } : {}),
    });
  await queue.complete(step.taskId, claimant, { status: 'completed', files: [`/out/${index}.png`] });
  await queue.steps(runId);
}

async function measure(queue: TaskQueue): Promise<{ perStepMs: number; pollMs: number }> {
  const claimant = 'worker:bench:1:benchtoken';
  const run = await queue.create({ profile: 'bench', taskType: 'batch', payload: { kind: 'run' } });
  await queue.claim(run.taskId, claimant);
  for (let i = 0; i < 10; i++) await oneStep(queue, run.taskId, 100_000 + i, claimant); // warm-up
  const started = performance.now();
  for (let i = 0; i < STEPS; i++) await oneStep(queue, run.taskId, i, claimant);
  const perStepMs = (performance.now() - started) / STEPS;
  const polled = performance.now();
  for (let i = 0; i < STEPS; i++) await queue.get(run.taskId);
  return { perStepMs, pollMs: (performance.now() - polled) / STEPS };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-queue-bench-'));
const catalog = openCatalog({ path: path.join(dir, 'gflow.db') });
const cluster = await startPostgres();
const fleet = await openFleet({ url: cluster.url, role: 'client' });
try {
  const sqlite = await measure(sqliteTaskQueue(() => catalog.tasks));
  const postgres = await measure(fleet.queue);
  const ops = 3 + PHASES.length + 1;
  const lines = [
    '# Queue overhead per step (@gflow/fleet)',
    '',
    `${STEPS} steps each; one step = ${ops} queue calls (create, claim, ${PHASES.length} checkpoint writes, complete, the run's steps read). Node ${process.version}, ${os.cpus().length} cores.`,
    '',
    '| backend | per step | per cancel poll (get) |',
    '|---|---|---|',
    `| SQLite (embedded, WAL file) | ${sqlite.perStepMs.toFixed(2)} ms | ${sqlite.pollMs.toFixed(3)} ms |`,
    `| PostgreSQL (fleet, loopback) | ${postgres.perStepMs.toFixed(2)} ms | ${postgres.pollMs.toFixed(3)} ms |`,
    '',
    `PostgreSQL / SQLite: ${(postgres.perStepMs / sqlite.perStepMs).toFixed(1)}× per step. Each write reads its row under SELECT … FOR UPDATE and writes it in one transaction (four round trips on loopback); what a step costs in Flow itself (seconds for an image, minutes for a clip) is the fleet bench's (FLEET.md).`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(import.meta.dirname, 'QUEUE.md'), `${lines.join('\n')}\n`);
} finally {
  await fleet.close();
  catalog.close();
  await cluster.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
