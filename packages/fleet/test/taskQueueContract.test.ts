// The queue port's contract (issue 46), held on both backends: the embedded SQLite queue of the
// catalog and the fleet's PostgreSQL queue (a real throw-away cluster, several connections, so a
// race between claimants is a real race). The same cases, the same answers: core cannot tell which
// backend it runs on except by what each can reach.
import { type Catalog, type TaskQueue, openCatalog, sqliteTaskQueue } from '@gflow/catalog';
import { BadParameterError, CancelledError, DataIntegrityError, NetworkError, QueueSchemaError } from '@gflow/errors';
import { waitFor } from '@gflow/testkit';
import { usePostgres } from '@gflow/testkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, openFleet } from '../src/index.js';
import { BOSS_SCHEMA } from '../src/queue/dispatch.js';

const db = usePostgres();

interface Backend {
  readonly queue: TaskQueue;
  /** Rewrites a row's stored payload version (a row written by another gflow). */
  tamper(taskId: string, version: number): Promise<void>;
  /** The dispatch jobs sent for a task (PostgreSQL's pg-boss jobs; the embedded queue has none). */
  jobsOf(taskId: string): Promise<number>;
}

let fleet: Fleet;
let catalog: Catalog;
const backends: Record<'sqlite' | 'postgres', () => Backend> = {
  sqlite: () => ({
    queue: sqliteTaskQueue(() => catalog.tasks),
    tamper: async (taskId, version) =>
      void catalog.database
        .prepare('UPDATE generation_queue SET schema_version = ? WHERE task_id = ?')
        .run(version, taskId),
    jobsOf: async () => 0,
  }),
  postgres: () => ({
    queue: fleet.queue,
    tamper: async (taskId, version) => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('UPDATE gflow.tasks SET schema_version = $1 WHERE task_id = $2', [version, taskId]);
      await client.end();
    },
    jobsOf: async (taskId) => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${BOSS_SCHEMA}.job WHERE data->>'task_id' = $1`,
          [taskId],
        );
        return rows[0]?.n ?? 0;
      } finally {
        await client.end();
      }
    },
  }),
};

beforeAll(async () => {
  catalog = openCatalog({ path: ':memory:' });
  fleet = await openFleet({ url: db.url, role: 'client', poolSize: 8 });
});
afterAll(async () => {
  catalog?.close();
  await fleet?.close();
});

let n = 0;
/** A profile of its own per test, so lists and claimNext see only that test's rows. */
const freshProfile = (): string => `p${++n}`;

describe.each(['sqlite', 'postgres'] as const)('the queue port on %s', (name) => {
  const backend = (): Backend => backends[name]();

  it('creates pending rows with schema_version; refuses a bad id, an unknown version, a repeated key, an orphan step', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const t = await queue.create({ profile, taskType: 't2i', payload: { prompt: 'cat' }, idempotencyKey: 'k-1' });
    expect(t).toMatchObject({ status: 'pending', schemaVersion: 2, payload: { prompt: 'cat', schema_version: 2 } });
    expect(t.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await queue.get(t.taskId)).toEqual(t);
    expect(await queue.findByIdempotencyKey(profile, 'k-1')).toEqual(t);
    await expect(queue.create({ profile, taskType: 't2i', payload: {}, idempotencyKey: 'k-1' })).rejects.toThrow(
      DataIntegrityError,
    );
    await expect(queue.create({ profile, taskType: 't2i', payload: {}, taskId: 'has space' })).rejects.toThrow(
      BadParameterError,
    );
    await expect(queue.create({ profile, taskType: 't2i', payload: { schema_version: 1 } })).rejects.toThrow(
      QueueSchemaError,
    );
    await expect(
      queue.create({ profile, taskType: 't2i', payload: {}, parent: { taskId: 'no-such-run', stepIndex: 0 } }),
    ).rejects.toThrow(DataIntegrityError);
    expect(await queue.get('missing')).toBeUndefined();
  });

  it('of many claimants racing for one row exactly one wins', async () => {
    const { queue } = backend();
    const t = await queue.create({ profile: freshProfile(), taskType: 't2i', payload: {} });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => queue.claim(t.taskId, `worker:p:${1000 + i}:tok${i}`)),
    );
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'working', checkpoint: { phase: 'claimed', may_have_spent: false } });
    expect((await queue.get(t.taskId))?.claimant).toBe(winners[0]?.claimant);
  });

  it('claimNext takes the oldest pending top-level row of the profile, never a step', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const a = await queue.create({ profile, taskType: 't2i', payload: {} });
    await queue.create({ profile, taskType: 't2i', payload: {}, parent: { taskId: a.taskId, stepIndex: 0 } });
    const b = await queue.create({ profile, taskType: 't2v', payload: {} });
    expect((await queue.claimNext(profile, 'worker:x:1:a'))?.taskId).toBe(a.taskId);
    expect((await queue.claimNext(profile, 'worker:x:1:a'))?.taskId).toBe(b.taskId);
    expect(await queue.claimNext(profile, 'worker:x:1:a')).toBeNull();
  });

  it('only the holder writes the checkpoint; ids are united; may_have_spent and submitting_at never turn back', async () => {
    const { queue } = backend();
    const w = 'worker:x:1:hold';
    const t = await queue.create({ profile: freshProfile(), taskType: 't2v', payload: {} });
    await expect(queue.updateCheckpoint(t.taskId, w, { phase: 'x' })).rejects.toThrow(DataIntegrityError);
    await queue.claim(t.taskId, w);
    await expect(queue.updateCheckpoint(t.taskId, 'worker:y:2:other', { phase: 'x' })).rejects.toThrow(
      /not held by this worker/,
    );
    await queue.updateCheckpoint(t.taskId, w, {
      phase: 'submitting',
      may_have_spent: true,
      submitting_at: '2026-01-01T00:00:00.000Z',
      media_ids: ['m1'],
    });
    const after = await queue.updateCheckpoint(t.taskId, w, {
      phase: 'generating',
      may_have_spent: false,
      submitting_at: '2027-01-01T00:00:00.000Z',
      media_ids: ['m2', 'm1'],
      project_id: 'proj-1',
    });
    expect(after.checkpoint).toMatchObject({
      phase: 'generating',
      may_have_spent: true,
      submitting_at: '2026-01-01T00:00:00.000Z',
      media_ids: ['m1', 'm2'],
      project_id: 'proj-1',
      claimant: w,
    });
  });

  it('a failure is failed; a cancellation is cancelled before the submit and indeterminate after it', async () => {
    const { queue } = backend();
    const w = 'worker:x:1:fail';
    const profile = freshProfile();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => queue.create({ profile, taskType: 't2i', payload: {} })));
    for (const t of [a, b, c]) await queue.claim(t!.taskId, w);
    await queue.updateCheckpoint(c!.taskId, w, { may_have_spent: true });
    expect((await queue.fail(a!.taskId, w, new NetworkError('down'))).status).toBe('failed');
    expect((await queue.fail(b!.taskId, w, new CancelledError('stop'))).status).toBe('cancelled');
    const spent = await queue.fail(c!.taskId, w, new CancelledError('stop'), { flowMediaId: 'media-9' });
    expect(spent).toMatchObject({ status: 'indeterminate', flowMediaId: 'media-9', error: { exit_code: 130 } });
    await expect(queue.complete(a!.taskId, w, { ok: true })).rejects.toThrow(DataIntegrityError);
  });

  it('tasks/cancel: pending at once, a running row asked (its holder settles it), a settled row left alone', async () => {
    const { queue } = backend();
    const w = 'worker:x:1:can';
    const profile = freshProfile();
    const pending = await queue.create({ profile, taskType: 't2i', payload: {} });
    expect((await queue.cancel(pending.taskId)).status).toBe('cancelled');
    expect((await queue.cancel(pending.taskId)).status).toBe('cancelled');
    const running = await queue.create({ profile, taskType: 't2i', payload: {} });
    await queue.claim(running.taskId, w);
    const asked = await queue.cancel(running.taskId);
    expect(asked.status).toBe('working');
    expect(asked.cancelRequestedAt).toMatch(/Z$/);
    await queue.updateCheckpoint(running.taskId, w, { may_have_spent: true });
    expect((await queue.cancel(running.taskId, { claimant: w })).status).toBe('indeterminate');
  });

  it('a run that ended is requeued with its checkpoint; its steps are listed by position; a spent step is recovered by its run', async () => {
    const { queue } = backend();
    const w = 'worker:x:1:run';
    const profile = freshProfile();
    const run = await queue.create({ profile, taskType: 'batch', payload: { kind: 'run' } });
    await queue.claim(run.taskId, w);
    const s1 = await queue.create({
      profile,
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 1 },
    });
    const s0 = await queue.create({
      profile,
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    expect((await queue.steps(run.taskId)).map((s) => s.taskId)).toEqual([s0.taskId, s1.taskId]);
    await queue.claim(s0.taskId, w);
    await queue.updateCheckpoint(s0.taskId, w, { may_have_spent: true, media_ids: ['m'] });
    await queue.fail(s0.taskId, w, new CancelledError('killed'));
    await expect(queue.recover(s0.taskId, 'worker:y:2:other', { status: 'completed' })).rejects.toThrow(
      DataIntegrityError,
    );
    expect((await queue.recover(s0.taskId, w, { status: 'completed', recovered: true })).status).toBe('completed');
    await expect(queue.requeue(run.taskId)).rejects.toThrow(/only a run that ended/);
    await queue.updateCheckpoint(run.taskId, w, { may_have_spent: true });
    await queue.fail(run.taskId, w, new NetworkError('lost'));
    const again = await queue.requeue(run.taskId);
    expect(again).toMatchObject({ status: 'pending', claimant: null, error: null, checkpoint: { phase: 'resumed' } });
    const reclaimed = await queue.claim(run.taskId, 'worker:z:3:new');
    expect(reclaimed?.checkpoint).toMatchObject({ may_have_spent: true, phase: 'claimed', claimant: 'worker:z:3:new' });
  });

  it('settles the rows of dead claimants: indeterminate after a submit, failed before it; live ones untouched', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => queue.create({ profile, taskType: 't2i', payload: {} })));
    await queue.claim(a!.taskId, 'worker:x:1:dead');
    await queue.claim(b!.taskId, 'worker:x:1:dead');
    await queue.claim(c!.taskId, 'worker:x:2:live');
    await queue.updateCheckpoint(b!.taskId, 'worker:x:1:dead', { may_have_spent: true });
    const settled = await queue.settleAbandoned({ isAlive: (claimant) => !claimant.endsWith(':dead') });
    expect(settled.failed).toContain(a!.taskId);
    expect(settled.indeterminate).toContain(b!.taskId);
    expect((await queue.get(c!.taskId))?.status).toBe('working');
    expect((await queue.get(a!.taskId))?.error).toMatchObject({ type: expect.stringContaining('daemon-recovery') });
  });

  it('settling a dead claimant before its submit: cancelled when asked, a background task queued again up to the bound; after it, the error names the ids', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const dead = `worker:${profile}:1:gone`;
    const isAlive = (claimant: string): boolean => claimant !== dead;
    const requeue = (payload: Readonly<Record<string, unknown>>): boolean => payload['background'] === true;
    const make = async (payload: Record<string, unknown>): Promise<string> => {
      const t = await queue.create({ profile, taskType: 't2i', payload });
      await queue.claim(t.taskId, dead);
      return t.taskId;
    };
    const background = await make({ background: true });
    const stopped = await make({ background: true });
    await queue.cancel(stopped);
    const spent = await make({ background: true });
    await queue.updateCheckpoint(spent, dead, { may_have_spent: true, project_id: 'p-1', media_ids: ['m-1'] });
    const waited = await make({});
    const settled = await queue.settleAbandoned({ isAlive }, { requeue });
    expect(settled).toEqual({ indeterminate: [spent], failed: [waited], cancelled: [stopped], requeued: [background] });
    expect(await queue.get(background)).toMatchObject({
      status: 'pending',
      claimant: null,
      error: null,
      checkpoint: { phase: 'requeued', requeues: 1, may_have_spent: false },
    });
    expect(await queue.get(stopped)).toMatchObject({ status: 'cancelled', error: null });
    const error = (await queue.get(spent))?.error ?? {};
    expect(error['detail']).toContain('Flow project p-1, media m-1');
    expect(error).toMatchObject({ flow_project_id: 'p-1', flow_media_ids: ['m-1'], retryable: false });
    // A claim keeps the count; the fourth death before the submit is failed.
    for (const expected of [2, 3]) {
      expect((await queue.claim(background, dead))?.checkpoint).toMatchObject({ requeues: expected - 1 });
      expect((await queue.settleAbandoned({ isAlive }, { requeue })).requeued).toEqual([background]);
    }
    await queue.claim(background, dead);
    expect((await queue.settleAbandoned({ isAlive }, { requeue })).failed).toEqual([background]);
    expect(String((await queue.get(background))?.error?.['detail'])).toContain('queued again 3 times');
  });

  it('a row the caller takes over at once goes back to pending in the same settle, its steps settled; a spent generation or a cancel still ends', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const dead = `worker:${profile}:1:gone`;
    const isAlive = (claimant: string): boolean => claimant !== dead;
    const run = await queue.create({ profile, taskType: 'batch', payload: { kind: 'run' } });
    await queue.claim(run.taskId, dead);
    await queue.updateCheckpoint(run.taskId, dead, { may_have_spent: true });
    const step = await queue.create({
      profile,
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    await queue.claim(step.taskId, dead);
    await queue.updateCheckpoint(step.taskId, dead, { may_have_spent: true, media_ids: ['m-1'] });
    const jobsBefore = await backend().jobsOf(run.taskId);
    // On PostgreSQL the run's own job is seen (so the count below can tell a second one).
    if (name === 'postgres') expect(jobsBefore).toBe(1);
    const settled = await queue.settleAbandoned({ isAlive }, { resume: run.taskId });
    expect(settled).toEqual({ indeterminate: [step.taskId], failed: [], cancelled: [], requeued: [run.taskId] });
    expect(await queue.get(run.taskId)).toMatchObject({
      status: 'pending',
      claimant: null,
      error: null,
      checkpoint: { may_have_spent: true },
    });
    // Its current job is the caller's: no second job for it.
    expect(await backend().jobsOf(run.taskId)).toBe(jobsBefore);
    expect((await queue.claim(run.taskId, `worker:${profile}:2:next`))?.status).toBe('working');

    // Never a spent generation (it is never sent twice), never a row whose cancel was asked.
    const spent = await queue.create({ profile, taskType: 't2i', payload: {} });
    await queue.claim(spent.taskId, dead);
    await queue.updateCheckpoint(spent.taskId, dead, { may_have_spent: true });
    expect((await queue.settleAbandoned({ isAlive }, { resume: spent.taskId })).indeterminate).toEqual([spent.taskId]);
    const stopped = await queue.create({ profile, taskType: 'batch', payload: { kind: 'run' } });
    await queue.claim(stopped.taskId, dead);
    await queue.cancel(stopped.taskId);
    expect((await queue.settleAbandoned({ isAlive }, { resume: stopped.taskId })).cancelled).toEqual([stopped.taskId]);
  });

  it('a holder stopping before its submit releases its row; never after the submit (unless a run), a cancel, or the bound', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const w = `worker:${profile}:1:rel`;
    const t = await queue.create({ profile, taskType: 't2i', payload: {} });
    await queue.claim(t.taskId, w);
    expect(await queue.release(t.taskId, `worker:${profile}:2:other`)).toBeUndefined();
    expect(await queue.release(t.taskId, w)).toMatchObject({
      status: 'pending',
      claimant: null,
      checkpoint: { phase: 'requeued', requeues: 1 },
    });
    await queue.claim(t.taskId, w);
    expect(await queue.release(t.taskId, w, { maxRequeues: 1 })).toBeUndefined();
    expect((await queue.get(t.taskId))?.status).toBe('working');
    const spent = await queue.create({ profile, taskType: 'batch', payload: { kind: 'run' } });
    await queue.claim(spent.taskId, w);
    await queue.updateCheckpoint(spent.taskId, w, { may_have_spent: true });
    expect(await queue.release(spent.taskId, w)).toBeUndefined();
    expect((await queue.release(spent.taskId, w, { run: true }))?.status).toBe('pending');
    const cancelled = await queue.create({ profile, taskType: 't2i', payload: {} });
    await queue.claim(cancelled.taskId, w);
    await queue.cancel(cancelled.taskId);
    expect(await queue.release(cancelled.taskId, w)).toBeUndefined();
  });

  it('a pending row names the process handing it over until a claim replaces it', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const t = await queue.create({ profile, taskType: 't2i', payload: {} });
    expect(await queue.noteHandover(t.taskId, `cli:${profile}:1:hand`)).toBe(true);
    expect(await queue.get(t.taskId)).toMatchObject({ status: 'pending', claimant: `cli:${profile}:1:hand` });
    await queue.claim(t.taskId, `worker:${profile}:2:take`);
    expect(await queue.noteHandover(t.taskId, `cli:${profile}:1:hand`)).toBe(false);
    expect((await queue.get(t.taskId))?.claimant).toBe(`worker:${profile}:2:take`);
  });

  it('a row of a payload version this gflow cannot read is failed at claim, never run', async () => {
    const b = backend();
    const t = await b.queue.create({ profile: freshProfile(), taskType: 't2i', payload: {} });
    await b.tamper(t.taskId, 9);
    await expect(b.queue.claim(t.taskId, 'worker:x:1:v')).rejects.toThrow(QueueSchemaError);
    expect(await b.queue.get(t.taskId)).toMatchObject({ status: 'failed', error: { exit_code: 30 } });
  });

  it('lists newest first with has_more, by profile, status, type and top level', async () => {
    const { queue } = backend();
    const profile = freshProfile();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await queue.create({ profile, taskType: 't2i', payload: { i } }));
    await queue.create({ profile, taskType: 't2i', payload: {}, parent: { taskId: made[0]!.taskId, stepIndex: 0 } });
    const page = await queue.list({ profile, topLevel: true, limit: 2 });
    expect(page.items.map((t) => t.taskId)).toEqual([made[2]!.taskId, made[1]!.taskId]);
    expect(page).toMatchObject({ hasMore: true, nextOffset: 2 });
    expect((await queue.list({ profile, status: 'pending' })).count).toBe(4);
    const story = await queue.create({ profile, taskType: 'story', payload: {} });
    expect((await queue.list({ profile, taskType: 'story' })).items.map((t) => t.taskId)).toEqual([story.taskId]);
  });
});

describe('the queue port on postgres, between transactions', () => {
  it('settling a dead claimant’s rows waits for a row another transaction holds, never skips it; live rows are not locked', async () => {
    const profile = freshProfile();
    const dead = `worker:${profile}:1:gone`;
    const live = `worker:${profile}:2:here`;
    const [step, other] = await Promise.all(
      [1, 2].map(() => fleet.queue.create({ profile, taskType: 't2i', payload: {} })),
    );
    await fleet.queue.claim(step!.taskId, dead);
    await fleet.queue.claim(other!.taskId, live);
    // Another worker's heartbeat holds both rows (its own settle looking at them).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT task_id FROM gflow.tasks WHERE task_id = ANY($1) FOR UPDATE', [
        [step!.taskId, other!.taskId],
      ]);
      const settling = fleet.queue.settleAbandoned({ isAlive: (claimant) => claimant !== dead });
      await waitFor(
        'the settle to wait on the held row',
        async () => {
          const { rows } = await holder.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted',
          );
          return (rows[0]?.n ?? 0) > 0 ? true : undefined;
        },
        30_000,
        50,
      );
      await holder.query('COMMIT');
      expect((await settling).failed).toEqual([step!.taskId]);
    } finally {
      await holder.end();
    }
    expect((await fleet.queue.get(step!.taskId))?.status).toBe('failed');
    expect((await fleet.queue.get(other!.taskId))?.status).toBe('working');
    // A live claimant's row held elsewhere does not hold a settle up: only dead claimants' rows are locked.
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT task_id FROM gflow.tasks WHERE task_id = $1 FOR UPDATE', [other!.taskId]);
      expect(await fleet.queue.settleAbandoned({ isAlive: (claimant) => claimant !== dead })).toMatchObject({
        failed: [],
        indeterminate: [],
      });
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end();
    }
  });
});
