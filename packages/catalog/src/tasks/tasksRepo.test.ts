import { describe, expect, it } from 'vitest';
import { CancelledError, DataIntegrityError, NetworkError, QueueSchemaError, exitCodeOf } from '@gflow/errors';
import { memoryCatalog } from '../../test/helpers.js';

const W = 'mcp:alice:100:tok';

describe('tasks', () => {
  it('creates pending tasks with schema_version and refuses unknown versions', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: { prompt: 'cat', count: 2 } });
    expect(t).toMatchObject({
      status: 'pending',
      schemaVersion: 2,
      payload: { prompt: 'cat', count: 2, schema_version: 2 },
      claimant: null,
    });
    expect(t.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.createdAt).toMatch(/Z$/);
    expect(c.tasks.get(t.taskId)).toEqual(t);
    expect(c.tasks.get('missing')).toBeUndefined();
    expect(() => c.tasks.create({ profile: 'alice', taskType: 't2i', payload: { schema_version: 1 } })).toThrow(
      QueueSchemaError,
    );
    expect(() => c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {}, taskId: 'has space' })).toThrow(
      /task_id/,
    );
  });

  it('claims a pending task exactly once', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    const won = c.tasks.claim(t.taskId, W);
    expect(won).toMatchObject({
      status: 'working',
      claimant: W,
      checkpoint: { phase: 'claimed', may_have_spent: false, claimant: W },
    });
    expect(won?.claimedAt).toMatch(/Z$/);
    expect(c.tasks.claim(t.taskId, 'mcp:alice:200:other')).toBeNull();
    expect(c.tasks.claim('missing', W)).toBeNull();
  });

  it('claimNext takes the oldest pending task of the profile', () => {
    const c = memoryCatalog();
    const a = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.create({ profile: 'bob', taskType: 't2i', payload: {} });
    const b = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    expect(c.tasks.claimNext('alice', W)?.taskId).toBe(a.taskId);
    expect(c.tasks.claimNext('alice', W)?.taskId).toBe(b.taskId);
    expect(c.tasks.claimNext('alice', W)).toBeNull();
  });

  it('a stored payload version this code does not support is failed at claim with QueueSchemaError', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.database.prepare('UPDATE generation_queue SET schema_version = 9 WHERE task_id = ?').run(t.taskId);
    expect(() => c.tasks.claim(t.taskId, W)).toThrow(QueueSchemaError);
    const after = c.tasks.get(t.taskId);
    expect(after?.status).toBe('failed');
    expect(after?.error).toMatchObject({ type: expect.stringContaining('queue-schema'), exit_code: 30 });
  });

  it('merges checkpoints; may_have_spent never turns back; only the holder may write', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(t.taskId, W);
    c.tasks.updateCheckpoint(t.taskId, W, {
      phase: 'submitted',
      may_have_spent: true,
      project_id: 'p',
      media_ids: ['m1'],
    });
    const cp = c.tasks.updateCheckpoint(t.taskId, W, {
      phase: 'downloading',
      may_have_spent: false,
      media_ids: ['m1', 'm2'],
      workflow_ids: ['w'],
    }).checkpoint;
    expect(cp).toEqual({
      schema_version: 1,
      claimant: W,
      phase: 'downloading',
      may_have_spent: true,
      project_id: 'p',
      operation_id: null,
      media_ids: ['m1', 'm2'],
      workflow_ids: ['w'],
    });
    expect(() => c.tasks.updateCheckpoint(t.taskId, 'mcp:alice:1:x', { phase: 'x' })).toThrow(DataIntegrityError);
  });

  it('completes with the wait=true payload; a settled task cannot be completed again', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.claim(t.taskId, W);
    const result = { status: 'completed', task_id: t.taskId, files: ['/a.png'], flow_media_id: 'm1' };
    const done = c.tasks.complete(t.taskId, W, result, { flowMediaId: 'm1' });
    expect(done).toMatchObject({ status: 'completed', result, flowMediaId: 'm1', error: null });
    expect(() => c.tasks.complete(t.taskId, W, result)).toThrow(DataIntegrityError);
  });

  it('fails with problem details and exit_code; a cancellation after submit is indeterminate', () => {
    const c = memoryCatalog();
    const a = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.claim(a.taskId, W);
    const failed = c.tasks.fail(a.taskId, W, new NetworkError('Connection reset.'), { flowMediaId: 'm9' });
    expect(failed).toMatchObject({
      status: 'failed',
      flowMediaId: 'm9',
      error: { detail: 'Connection reset.', exit_code: exitCodeOf(new NetworkError()) },
    });

    const b = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(b.taskId, W);
    c.tasks.updateCheckpoint(b.taskId, W, { may_have_spent: true });
    expect(c.tasks.fail(b.taskId, W, new CancelledError()).status).toBe('indeterminate');

    const d = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(d.taskId, W);
    expect(c.tasks.fail(d.taskId, W, new CancelledError()).status).toBe('cancelled');
  });

  it('cancel: pending → cancelled; working → request only, then the holder settles by may_have_spent', () => {
    const c = memoryCatalog();
    const p = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    expect(c.tasks.cancel(p.taskId).status).toBe('cancelled');
    expect(c.tasks.claim(p.taskId, W)).toBeNull();

    const w = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(w.taskId, W);
    const requested = c.tasks.cancel(w.taskId);
    expect(requested.status).toBe('working');
    expect(requested.cancelRequestedAt).toMatch(/Z$/);
    c.tasks.updateCheckpoint(w.taskId, W, { may_have_spent: true });
    expect(c.tasks.cancel(w.taskId, { claimant: W }).status).toBe('indeterminate');
    expect(c.tasks.cancel(w.taskId).status).toBe('indeterminate');

    const x = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(x.taskId, W);
    expect(c.tasks.cancel(x.taskId, { claimant: W }).status).toBe('cancelled');
    expect(() => c.tasks.cancel('missing')).toThrow(DataIntegrityError);
  });

  it('lists tasks newest first, by profile, status and type', () => {
    const c = memoryCatalog();
    const a = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    const b = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    const story = c.tasks.create({ profile: 'bob', taskType: 'story', payload: {} });
    c.tasks.create({ profile: 'bob', taskType: 't2i', payload: {} });
    expect(c.tasks.list({ taskType: 'story' }).items.map((t) => t.taskId)).toEqual([story.taskId]);
    c.tasks.claim(a.taskId, W);
    expect(c.tasks.list({ profile: 'alice' }).items.map((t) => t.taskId)).toEqual([b.taskId, a.taskId]);
    expect(c.tasks.list({ status: 'working' }).items.map((t) => t.taskId)).toEqual([a.taskId]);
    expect(c.tasks.list({ limit: 3 })).toMatchObject({ count: 3, hasMore: true });
  });

  it('runs: steps are child rows in position order; the worker claims only top-level rows', () => {
    const c = memoryCatalog();
    const run = c.tasks.create({ profile: 'alice', taskType: 'batch', payload: {} });
    const second = c.tasks.create({
      profile: 'alice',
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 1 },
    });
    const first = c.tasks.create({
      profile: 'alice',
      taskType: 't2i',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    expect(c.tasks.steps(run.taskId).map((t) => [t.taskId, t.stepIndex, t.parentTaskId])).toEqual([
      [first.taskId, 0, run.taskId],
      [second.taskId, 1, run.taskId],
    ]);
    expect(c.tasks.claimNext('alice', W)?.taskId).toBe(run.taskId);
    expect(c.tasks.claimNext('alice', W)).toBeNull();
    expect(c.tasks.list({ profile: 'alice', topLevel: true }).items.map((t) => t.taskId)).toEqual([run.taskId]);
    expect(() =>
      c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {}, parent: { taskId: 'missing', stepIndex: 0 } }),
    ).toThrow(DataIntegrityError);
  });

  it('an idempotency key names one row per profile', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {}, idempotencyKey: 'retry-1' });
    expect(c.tasks.findByIdempotencyKey('alice', 'retry-1')?.taskId).toBe(t.taskId);
    expect(c.tasks.findByIdempotencyKey('bob', 'retry-1')).toBeUndefined();
    expect(() => c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {}, idempotencyKey: 'retry-1' })).toThrow(
      DataIntegrityError,
    );
    expect(c.tasks.create({ profile: 'bob', taskType: 't2i', payload: {}, idempotencyKey: 'retry-1' }).profile).toBe(
      'bob',
    );
    expect(() =>
      c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {}, idempotencyKey: 'bad\nkey' }),
    ).toThrow(/idempotency_key/);
  });

  it('a holder that stops before its submit releases its task to the queue; never after the submit, a cancel, or the bound', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.claim(t.taskId, W);
    expect(c.tasks.release(t.taskId, 'mcp:alice:200:other')).toBeUndefined();
    expect(c.tasks.release(t.taskId, W)).toMatchObject({
      status: 'pending',
      claimant: null,
      checkpoint: { phase: 'requeued', requeues: 1, may_have_spent: false },
    });
    // The bound: a task released three times is not released a fourth time.
    for (let i = 0; i < 2; i++) {
      c.tasks.claim(t.taskId, W);
      expect(c.tasks.release(t.taskId, W)?.checkpoint?.requeues).toBe(i + 2);
    }
    c.tasks.claim(t.taskId, W);
    expect(c.tasks.release(t.taskId, W)).toBeUndefined();
    expect(c.tasks.get(t.taskId)).toMatchObject({ status: 'working', claimant: W });

    const spent = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.claim(spent.taskId, W);
    c.tasks.updateCheckpoint(spent.taskId, W, { phase: 'submitting', may_have_spent: true });
    expect(c.tasks.release(spent.taskId, W)).toBeUndefined();
    expect(c.tasks.get(spent.taskId)?.status).toBe('working');

    const cancelled = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    c.tasks.claim(cancelled.taskId, W);
    c.tasks.cancel(cancelled.taskId);
    expect(c.tasks.release(cancelled.taskId, W)).toBeUndefined();
    expect(c.tasks.get(cancelled.taskId)?.status).toBe('working');
  });

  it('a run that ended is requeued for its resumer; a step that may have spent is recovered, never re-claimed', () => {
    const c = memoryCatalog();
    const run = c.tasks.create({ profile: 'alice', taskType: 'chain', payload: {} });
    c.tasks.claim(run.taskId, W);
    const step = c.tasks.create({
      profile: 'alice',
      taskType: 't2v',
      payload: {},
      parent: { taskId: run.taskId, stepIndex: 0 },
    });
    c.tasks.claim(step.taskId, W);
    c.tasks.updateCheckpoint(step.taskId, W, { may_have_spent: true, media_ids: ['m1'] });
    expect(c.tasks.fail(step.taskId, W, new CancelledError('stop')).status).toBe('indeterminate');
    c.tasks.updateCheckpoint(run.taskId, W, { may_have_spent: true });
    expect(c.tasks.fail(run.taskId, W, new CancelledError('stop')).status).toBe('indeterminate');
    expect(() => c.tasks.requeue(step.taskId)).toThrow(DataIntegrityError);
    const other = 'cli:alice:200:tok';
    expect(c.tasks.requeue(run.taskId)).toMatchObject({
      status: 'pending',
      claimant: null,
      error: null,
      checkpoint: { may_have_spent: true },
    });
    expect(c.tasks.claimNext('alice', other)).toMatchObject({
      taskId: run.taskId,
      status: 'working',
      claimant: other,
      checkpoint: { may_have_spent: true, claimant: other },
    });
    expect(() => c.tasks.recover(step.taskId, W, { status: 'completed' })).toThrow(DataIntegrityError);
    expect(c.tasks.recover(step.taskId, other, { status: 'completed' })).toMatchObject({ status: 'completed' });
    expect(c.tasks.claim(step.taskId, other)).toBeNull();
  });
});
