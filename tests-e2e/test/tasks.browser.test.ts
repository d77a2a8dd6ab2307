// Journey 2: wait=false + tasks/get until completed, and tasks/cancel — before
// the submit (cancelled) and after it (indeterminate: a credit may have been
// spent) — over `gflow mcp run --sandbox` (stdio, SDK v2 client).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskRow } from './helpers/catalog.js';
import { waitFor } from '@gflow/testkit';
import type { McpConnection } from '@gflow/testkit/mcp';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';
import { type TaskReply, cancelTask, getTask } from './helpers/tasks.js';

const e2e = useSandbox({ seed: 'journey-tasks' });
let conn: McpConnection;

beforeAll(async () => {
  conn = await e2e.mcpStdio(['--sandbox']);
}, 90_000);

afterAll(async () => {
  await conn?.close();
});

async function pending(args: Record<string, unknown>): Promise<string> {
  const reply = await conn.call('gflow_generate_image', { ...args, wait: false });
  expect(reply.isError, JSON.stringify(reply.structured)).toBe(false);
  expect(reply.structured).toMatchObject({ status: 'pending', task_id: expect.any(String) });
  return String(reply.structured['task_id']);
}

/** The keys of an acknowledgement beyond the protocol's own (_meta, resultType). */
const ackKeys = (ack: Record<string, unknown>): string[] =>
  Object.keys(ack).filter((key) => key !== '_meta' && key !== 'resultType');

async function settled(taskId: string, timeoutMs = 90_000): Promise<TaskReply> {
  return waitFor(
    `task ${taskId} to leave working`,
    async () => {
      const task = await getTask(conn, taskId);
      return task.status === 'working' ? undefined : task;
    },
    timeoutMs,
    200,
  );
}

describe('journey 2: background tasks over MCP', () => {
  it('wait=false answers pending at once; tasks/get says working, then completed with the wait=true reply', async () => {
    e2e.sim.received.clear();
    const taskId = await pending({ prompt: 'a kite over the dunes', aspect: '16:9' });
    const first = await getTask(conn, taskId);
    expect(first).toMatchObject({ taskId, ttlMs: null });
    expect(['working', 'completed']).toContain(first.status);

    const done = await settled(taskId);
    expect(done.status).toBe('completed');
    expect(done.result?.isError ?? false).toBe(false);
    const structured = done.result?.structuredContent ?? {};
    expect(structured).toMatchObject({ status: 'completed', task_id: taskId });
    const files = structured['files'] as string[];
    expect(files).toHaveLength(1);
    expect(fs.existsSync(files[0]!)).toBe(true);
    expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    expect(taskRow(e2e.dbPath, taskId)?.status).toBe('completed');
  }, 120_000);

  it('tasks/cancel: a queued job is cancelled; a job past its submit is indeterminate (shown cancelled, credit may be spent)', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation');
    try {
      const stuck = await pending({ prompt: 'a stuck generation', aspect: '1:1' });
      const queued = await pending({ prompt: 'queued behind it', aspect: '1:1' });
      // The first job's submit reached Flow (which never answers); the second waits its turn.
      await waitFor('the stuck submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
      expect((await getTask(conn, stuck)).status).toBe('working');
      expect((await getTask(conn, queued)).status).toBe('working');

      // Before its submit: cancelled, nothing was sent for it.
      expect(ackKeys(await cancelTask(conn, queued))).toEqual([]);
      const queuedView = await settled(queued);
      expect(queuedView.status).toBe('cancelled');
      expect(queuedView.statusMessage ?? '').not.toMatch(/credit/i);
      expect(taskRow(e2e.dbPath, queued)?.status).toBe('cancelled');

      // After its submit: indeterminate in the catalog, `cancelled` + a credit warning on the wire.
      expect(ackKeys(await cancelTask(conn, stuck))).toEqual([]);
      const stuckView = await settled(stuck);
      expect(stuckView.status).toBe('cancelled');
      expect(stuckView.statusMessage ?? '').toMatch(/credit/i);
      await waitFor('the stuck task row to settle', () => taskRow(e2e.dbPath, stuck)?.status !== 'working', 30_000);
      expect(taskRow(e2e.dbPath, stuck)?.status).toBe('indeterminate');

      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    } finally {
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);

  it('the server still generates after a cancelled job (the profile and its browser are free again)', async () => {
    e2e.sim.received.clear();
    const taskId = await pending({ prompt: 'after the cancel', aspect: '9:16' });
    const done = await settled(taskId);
    expect(done.status).toBe('completed');
    expect(done.result?.isError ?? false, JSON.stringify(done.result)).toBe(false);
    expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
  }, 120_000);

  it('tasks/get refuses an unknown task id (-32602)', async () => {
    await expect(getTask(conn, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: -32602 });
  });
});
