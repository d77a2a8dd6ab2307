// The fleet backend on a real throw-away PostgreSQL (issue 46): a top-level row and its pg-boss job
// commit together (a step gets none); a worker takes only its profiles' jobs; a worker SIGKILLed
// mid-task gives its job back once its heartbeat lapses and another takes it, the row still naming
// the dead claimant (the run resumes from its rows); the registry's liveness; a pool's run moves
// on when refused, never after a step made something; the shared catalog; the schema's guard.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataMigrationError, InsufficientCreditsError } from '@gflow/errors';
import { waitFor } from '@gflow/testkit';
import { usePostgres } from '@gflow/testkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, openFleet } from '../src/index.js';

const db = usePostgres();
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FAST = { heartbeatSeconds: 10, monitorSeconds: 1, pollSeconds: 1 };

let client: Fleet;
let worker: Fleet;
beforeAll(async () => {
  client = await openFleet({ url: db.url, role: 'client', timings: FAST, heartbeatMs: 500 });
  worker = await openFleet({ url: db.url, role: 'worker', timings: FAST, heartbeatMs: 500 });
});
afterAll(async () => {
  await client?.close();
  await worker?.close();
});

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

const jobsOf = (profile: string) =>
  sql<{ state: string; data: { task_id: string } }>('SELECT state, data FROM gflow_boss.job WHERE name = $1', [
    `gflow.profile.${profile}`,
  ]);

describe('dispatch', () => {
  it("a top-level row's job commits with it; a step's row gets none; a worker takes only its profile's jobs", async () => {
    const taken: string[] = [];
    await worker.dispatch.serve('disp-a', async (taskId) => void taken.push(taskId));
    const run = await client.queue.create({ profile: 'disp-a', taskType: 'batch', payload: { kind: 'run' } });
    await client.queue.create({
      profile: 'disp-a',
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    const other = await client.queue.create({ profile: 'disp-b', taskType: 't2i', payload: {} });
    await waitFor('the worker to take its profile’s job', () => taken.includes(run.taskId), 20_000);
    expect(taken).toEqual([run.taskId]);
    expect((await jobsOf('disp-a')).map((j) => j.data.task_id)).toEqual([run.taskId]);
    expect((await jobsOf('disp-b')).map((j) => j.data.task_id)).toEqual([other.taskId]);
    await worker.dispatch.stopServing('disp-a', false);
  });

  it('a row refused inside its transaction leaves no job behind', async () => {
    await client.queue.create({ profile: 'disp-c', taskType: 't2i', payload: {}, idempotencyKey: 'once' });
    await expect(
      client.queue.create({ profile: 'disp-c', taskType: 't2i', payload: {}, idempotencyKey: 'once' }),
    ).rejects.toThrow(/idempotency key/);
    expect(await jobsOf('disp-c')).toHaveLength(1);
  });

  it('a worker SIGKILLed mid-task: its heartbeat lapses, another worker gets the job, the row still names the dead claimant', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(PACKAGE_DIR, 'test/fixtures/servingWorker.ts'), db.url, 'fail-a', 'deadbeef01'],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await waitFor(`the child to serve (${err})`, () => out.includes('serving'), 30_000);
      const task = await client.queue.create({ profile: 'fail-a', taskType: 't2i', payload: {} });
      await waitFor('the child to claim', () => out.includes(`claimed ${task.taskId}`), 20_000);
      expect(await client.registry.alive('deadbeef01')).toBe(true);
      child.kill('SIGKILL');
      const given: string[] = [];
      await worker.dispatch.serve('fail-a', async (taskId) => void given.push(taskId));
      await waitFor('the job to come back to the live worker', () => given.includes(task.taskId), 40_000);
      const row = await client.queue.get(task.taskId);
      expect(row).toMatchObject({ status: 'working', claimant: `worker:fail-a:${child.pid}:deadbeef01` });
      await waitFor(
        'the dead worker to be taken for dead',
        async () => !(await client.registry.alive('deadbeef01')),
        10_000,
      );
      expect(await client.queue.claimantAlive(row!.claimant!)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await worker.dispatch.stopServing('fail-a', false);
    }
  }, 90_000);
});

describe('routing a pool', () => {
  it('picks the least busy live profile; a refused run moves to the next one, never after a step made something', async () => {
    await worker.registry.register({
      id: 'route-w1',
      host: 'h1',
      pid: 1,
      profiles: [
        { name: 'studio-a', pools: ['studio'] },
        { name: 'studio-b', pools: ['studio'] },
        { name: 'solo', pools: [] },
      ],
    });
    expect((await client.route('studio', 'image'))?.profile).toBe('studio-a');
    const rewrite = (payload: Record<string, unknown>, profile: string) => ({ ...payload, profile, project: null });
    const run = await client.queue.create({
      profile: 'studio-a',
      taskType: 'batch',
      payload: { kind: 'run', profile: 'studio-a', project: 'p-1' },
      pool: 'studio',
    });
    expect((await client.route('studio', 'image'))?.profile).toBe('studio-b');
    await client.queue.claim(run.taskId, 'worker:studio-a:1:route-w1');
    const step = await client.queue.create({
      profile: 'studio-a',
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    await client.queue.claim(step.taskId, 'worker:studio-a:1:route-w1');
    await client.queue.fail(step.taskId, 'worker:studio-a:1:route-w1', new Error('refused'));
    await client.queue.fail(run.taskId, 'worker:studio-a:1:route-w1', new Error('refused'));

    const moved = await client.reroute(run.taskId, {
      reason: 'insufficient-credits',
      kind: 'image',
      holdMs: 60_000,
      rewrite,
    });
    expect(moved.profile).toBe('studio-b');
    expect(moved.record).toMatchObject({
      status: 'pending',
      profile: 'studio-b',
      checkpoint: null,
      payload: { profile: 'studio-b', project: null },
    });
    expect(await client.queue.steps(run.taskId)).toEqual([]);
    const studioA = (await client.profiles()).find((p) => p.profile === 'studio-a');
    expect(studioA).toMatchObject({ refused: { image: true, video: false }, refusedReason: 'insufficient-credits' });
    expect((await jobsOf('studio-b')).map((j) => j.data.task_id)).toContain(run.taskId);

    // On studio-b a step completes; refused again, the run stays: its project lives on studio-b.
    await client.queue.claim(run.taskId, 'worker:studio-b:1:route-w1');
    const made = await client.queue.create({
      profile: 'studio-b',
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    await client.queue.claim(made.taskId, 'worker:studio-b:1:route-w1');
    await client.queue.complete(made.taskId, 'worker:studio-b:1:route-w1', { status: 'completed' });
    await client.queue.fail(run.taskId, 'worker:studio-b:1:route-w1', new Error('refused at step 2'));
    const stays = await client.reroute(run.taskId, { reason: 'waf-rejection', kind: 'image', holdMs: 1, rewrite });
    expect(stays.profile).toBeUndefined();
    expect(stays.record).toMatchObject({ status: 'failed', profile: 'studio-b' });
    // A pool with every profile refused (or held back) routes nowhere.
    await client.registry.markRefused('studio-b', 'image', 'insufficient-credits', 60_000);
    expect(await client.route('studio', 'image')).toBeUndefined();
    expect((await client.route('studio', 'video'))?.profile).toBe('studio-a');
  });

  it('with a refusal policy a failing pool task moves in its own transaction: no reader ever sees it failed', async () => {
    const moving = await openFleet({
      url: db.url,
      role: 'client',
      refusals: (_record, problem) =>
        String(problem['type']).endsWith('insufficient-credits')
          ? {
              reason: 'insufficient-credits',
              kind: 'video',
              holdMs: 60_000,
              rewrite: (p, profile) => ({ ...p, profile }),
            }
          : undefined,
    });
    try {
      await worker.registry.register({
        id: 'atomic-w',
        host: 'h3',
        pid: 3,
        profiles: [
          { name: 'atomic-a', pools: ['atomic'] },
          { name: 'atomic-b', pools: ['atomic'] },
        ],
      });
      const task = await moving.queue.create({ profile: 'atomic-a', taskType: 't2v', payload: {}, pool: 'atomic' });
      await moving.queue.claim(task.taskId, 'worker:atomic-a:3:atomic-w');
      const refused = new InsufficientCreditsError('Flow refused for lack of credits or quota.');
      const after = await moving.queue.fail(task.taskId, 'worker:atomic-a:3:atomic-w', refused);
      expect(after).toMatchObject({ status: 'pending', profile: 'atomic-b', payload: { profile: 'atomic-b' } });
      const other = await moving.queue.create({ profile: 'atomic-b', taskType: 't2v', payload: {}, pool: 'atomic' });
      await moving.queue.claim(other.taskId, 'worker:atomic-b:3:atomic-w');
      const plain = await moving.queue.fail(other.taskId, 'worker:atomic-b:3:atomic-w', new Error('a plain failure'));
      expect(plain).toMatchObject({ status: 'failed', profile: 'atomic-b' });
    } finally {
      await moving.close();
    }
  });

  it('a worker that stopped is no longer alive; its profiles route nowhere', async () => {
    await worker.registry.register({
      id: 'gone-w',
      host: 'h2',
      pid: 2,
      profiles: [{ name: 'gone-a', pools: ['gone'] }],
    });
    expect((await client.route('gone', 'video'))?.profile).toBe('gone-a');
    await worker.registry.stopped('gone-w');
    expect(await client.registry.alive('gone-w')).toBe(false);
    expect(await client.route('gone', 'video')).toBeUndefined();
  });
});

describe('the shared catalog', () => {
  it('publishes a generation once (a second publish updates it) and reads it back by media, project and lineage', async () => {
    const record = {
      profile: 'share-a',
      taskId: 't-1',
      workerId: 'w-1',
      projectId: 'proj-s',
      projectTitle: 'Harbour',
      items: [
        {
          mediaId: 'media-s1',
          kind: 'image' as const,
          prompt: 'a harbour',
          model: 'nano2',
          aspect: '1:1',
          fileKey: 'images/2026-10-20/a.png',
          bytes: 123,
          sha256: 'ab'.repeat(32),
        },
      ],
      sources: [{ mediaId: 'media-src', role: 'input' }],
    };
    await client.shared.publish(record);
    await client.shared.publish({ ...record, items: [{ ...record.items[0]!, bytes: 124 }] });
    const found = await client.shared.mediaById('media-s1');
    expect(found).toMatchObject({
      profile: 'share-a',
      projectId: 'proj-s',
      fileKey: 'images/2026-10-20/a.png',
      bytes: 124,
    });
    expect((await client.shared.recentMedia({ kind: 'image' })).items.map((m) => m.mediaId)).toContain('media-s1');
    expect(await client.shared.project('proj-s')).toMatchObject({ title: 'Harbour', media: [{ mediaId: 'media-s1' }] });
    expect(await client.shared.lineageOf('media-src')).toEqual({ sources: [], derived: ['media-s1'] });
    expect(await client.shared.mediaById('nope')).toBeUndefined();
  });
});

describe("the fleet's schema", () => {
  it('processes opening together migrate once; a schema newer than this gflow is refused, never rewritten', async () => {
    const url = await db.createDatabase('schema_race');
    const opened = await Promise.all([1, 2, 3].map(() => openFleet({ url, role: 'client' })));
    await Promise.all(opened.map((f) => f.close()));
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query('SELECT version FROM gflow.schema_migrations');
    expect(rows).toEqual([{ version: 1 }]);
    await c.query("INSERT INTO gflow.schema_migrations VALUES (99, '0099_future.sql', 'x')");
    await c.end();
    await expect(openFleet({ url, role: 'client' })).rejects.toThrow(DataMigrationError);
  });

  it('a URL that is not postgres:// is a configuration error; an unreachable server a data-store error', async () => {
    await expect(openFleet({ url: 'mysql://x', role: 'client' })).rejects.toThrow(/postgres:\/\//);
    await expect(openFleet({ url: 'postgres://postgres@127.0.0.1:1/x', role: 'client' })).rejects.toMatchObject({
      code: 'data-store',
    });
  });
});
