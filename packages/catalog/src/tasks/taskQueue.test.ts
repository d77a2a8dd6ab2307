// The embedded backend of the queue port (issue 46): the repository's statements behind promises,
// run at the moment they are called (so the order and timing of writes are the ones before the
// port), refusals as rejections. The rules both backends share are held by the fleet's contract
// suite (packages/fleet/test/taskQueueContract.test.ts), which runs on this backend too.
import { DataIntegrityError } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../../test/helpers.js';
import { sqliteTaskQueue } from './taskQueue.js';

const W = 'worker:alice:100:tok';

describe('sqliteTaskQueue', () => {
  it('writes when called, before anything awaits the answer', async () => {
    const c = memoryCatalog();
    const queue = sqliteTaskQueue(() => c.tasks);
    expect(queue.backend).toBe('sqlite');
    const created = queue.create({ profile: 'alice', taskType: 't2i', payload: { prompt: 'x' } });
    const [row] = c.tasks.list().items;
    expect(row?.status).toBe('pending');
    const task = await created;
    void queue.claim(task.taskId, W);
    void queue.updateCheckpoint(task.taskId, W, { phase: 'submitting', may_have_spent: true });
    expect(c.tasks.get(task.taskId)?.checkpoint).toMatchObject({ phase: 'submitting', may_have_spent: true });
  });

  it('a refusal is a rejection, and the row is as the repository left it', async () => {
    const c = memoryCatalog();
    const queue = sqliteTaskQueue(() => c.tasks);
    const task = await queue.create({ profile: 'alice', taskType: 't2i', payload: {} });
    await expect(queue.updateCheckpoint(task.taskId, W, { phase: 'x' })).rejects.toThrow(DataIntegrityError);
    expect(await queue.claim(task.taskId, W)).toMatchObject({ status: 'working', claimant: W });
    expect(await queue.claim(task.taskId, 'worker:alice:200:other')).toBeNull();
    expect((await queue.list({ status: 'working' })).items.map((r) => r.taskId)).toEqual([task.taskId]);
  });

  it('opens the catalog only when first called, and tells a live claimant of this host by its pid', async () => {
    let opened = 0;
    const c = memoryCatalog();
    const queue = sqliteTaskQueue(() => {
      opened += 1;
      return c.tasks;
    });
    expect(opened).toBe(0);
    expect(await queue.get('missing')).toBeUndefined();
    expect(opened).toBe(1);
    expect(await queue.claimantAlive(`worker:alice:${process.pid}:tok`)).toBe(true);
    expect(await queue.claimantAlive('worker:alice:999999999:tok')).toBe(false);
  });
});
