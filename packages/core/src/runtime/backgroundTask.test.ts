import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ContentPolicyError, toErrorEnvelopeBody } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type Operation } from '../operations/operation.js';
import { type BackgroundWork, startBackgroundTask } from './backgroundTask.js';
import { Gflow } from './gflow.js';

let gflow: Gflow | undefined;
afterEach(async () => {
  await gflow?.close();
  gflow = undefined;
});

/** A runtime whose one operation queues `work` as a background task. */
async function runtimeWith(work: BackgroundWork): Promise<Gflow> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-bg-'));
  const queue = defineOperation({
    name: 'queue',
    mcpName: 'gflow_queue',
    title: 'Queue',
    description: 'Queues the test work.',
    kind: 'read',
    usesBrowser: false,
    task: 'optional',
    input: z.object({}),
    output: z.looseObject({ status: z.string() }),
    handler: async (_input, { runtime }) => ({
      ...(await startBackgroundTask(
        runtime,
        { profile: 'default', taskType: 'test', payload: { why: 'a test' } },
        work,
      )),
    }),
  });
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  gflow = new Gflow({ surface: 'mcp', env: { GFLOW_CLI_HOME: home }, cwd: home, logger: quiet }, [
    queue as unknown as Operation,
  ]);
  return gflow.ready();
}

async function settled(g: Gflow, taskId: string): Promise<string> {
  for (;;) {
    const status = (await g.tasks.get(taskId))?.status;
    if (status && status !== 'pending' && status !== 'working') return status;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const queued = async (g: Gflow): Promise<string> => ((await g.runByName('queue', {})) as { task_id: string }).task_id;

describe('startBackgroundTask', () => {
  it('answers pending once the row exists (working, claimed by this process), then completes with the envelope and the task id', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const g = await runtimeWith(async (job) => {
      job.phase('thinking');
      await gate;
      return { status: 'completed', answer: 42 };
    });
    const taskId = await queued(g);
    const row = g.catalog.tasks.get(taskId);
    expect(row).toMatchObject({ status: 'working', taskType: 'test', payload: { why: 'a test' } });
    expect(row?.claimant).toBe(g.claimantFor('default'));
    release();
    expect(await settled(g, taskId)).toBe('completed');
    expect((await g.tasks.get(taskId))?.result).toEqual({ status: 'completed', answer: 42, task_id: taskId });
  });

  it('a failure envelope fails the row with its problem: the job ran (not failed_to_run)', async () => {
    const g = await runtimeWith(async () => ({
      status: 'failed',
      error: toErrorEnvelopeBody(new ContentPolicyError('refused')),
    }));
    const taskId = await queued(g);
    expect(await settled(g, taskId)).toBe('failed');
    const view = await g.tasks.get(taskId);
    expect(view?.error?.['type']).toContain('content-policy');
    expect(view?.failed_to_run).toBeUndefined();
    expect(view?.result).toMatchObject({ status: 'failed', task_type: 'test', error: { detail: 'refused' } });
  });

  it('a crash fails the row masked, as a task that failed to run', async () => {
    const g = await runtimeWith(async () => {
      throw new TypeError('secret /home/alice path');
    });
    const taskId = await queued(g);
    expect(await settled(g, taskId)).toBe('failed');
    const view = await g.tasks.get(taskId);
    expect(view?.failed_to_run).toBe(true);
    expect(JSON.stringify(view)).not.toContain('/home/alice');
  });

  it('tasks.cancel aborts the running work and settles it cancelled; a question it waits on shows until then', async () => {
    const g = await runtimeWith(async (job) => {
      await job.ask({ go: { method: 'elicitation/create' } });
      return { status: 'completed' };
    });
    const taskId = await queued(g);
    for (;;) {
      if ((await g.tasks.get(taskId))?.input_requests) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await g.tasks.get(taskId))?.input_requests).toEqual({ go: { method: 'elicitation/create' } });
    expect((await g.tasks.cancel(taskId))?.status).toBe('cancelled');
    expect((await g.tasks.get(taskId))?.input_requests).toBeUndefined();
    // Cancelling a settled task leaves it as it is.
    expect((await g.tasks.cancel(taskId))?.status).toBe('cancelled');
  });

  it('update hands answers to the waiting work, which then completes; an unknown task is undefined', async () => {
    const g = await runtimeWith(async (job) => ({ status: 'completed', ...(await job.ask({ go: {} })) }));
    const taskId = await queued(g);
    for (;;) {
      if ((await g.tasks.get(taskId))?.input_requests) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await g.tasks.update(taskId, { go: 'yes', other: 'ignored' }))?.task_id).toBe(taskId);
    expect(await settled(g, taskId)).toBe('completed');
    expect((await g.tasks.get(taskId))?.result).toMatchObject({ go: 'yes' });
    expect(await g.tasks.update('no-such-task', {})).toBeUndefined();
  });
});
