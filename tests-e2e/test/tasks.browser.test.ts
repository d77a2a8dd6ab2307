// Journey 2: following a long generation, both ways a client can.
// - A client that speaks the MCP Tasks extension (SEP-2663) — the extension's own requester,
//   @modelcontextprotocol/ext-tasks — calls gflow_generate_video over `gflow serve --sandbox`, gets
//   a CreateTaskResult and follows it to the file; the official conformance suite's fixture-free
//   scenario checks the same server's negotiation.
// - A client without the extension (`gflow mcp run --sandbox`, SDK v2 client) gets today's
//   behaviour: wait=true answers inline; wait=false answers gflow's own {status: "pending",
//   task_id}, followed with gflow_task_get / gflow_task_wait to the file and stopped with
//   gflow_task_cancel — before its submit (cancelled) and after it (indeterminate: a credit may
//   have been spent).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gflow/testkit';
import { runConformanceScenario } from '@gflow/testkit/conformance';
import type { ServeProcess } from '@gflow/testkit/cli';
import { type McpConnection, type ToolReply, connectTaskRequester, resultFromTaskOutcome } from '@gflow/testkit/mcp';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';
import { taskRow } from './helpers/catalog.js';

const e2e = useSandbox({ seed: 'journey-tasks', signIn: true });
let conn: McpConnection;
let serve: ServeProcess;

beforeAll(async () => {
  [conn, serve] = await Promise.all([e2e.mcpStdio(['--sandbox']), e2e.serve(['--sandbox'])]);
}, 90_000);

afterAll(async () => {
  await conn?.close();
  await serve?.stop();
});

const fileOf = (structured: Record<string, unknown>): string => {
  const files = structured['files'] as string[] | undefined;
  expect(files, JSON.stringify(structured)).toHaveLength(1);
  return files?.[0] ?? '';
};

async function pending(tool: string, args: Record<string, unknown>): Promise<string> {
  const reply = await conn.call(tool, { ...args, wait: false });
  expect(reply.isError, JSON.stringify(reply.structured)).toBe(false);
  expect(reply.structured).toMatchObject({ status: 'pending', task_id: expect.any(String) });
  return String(reply.structured['task_id']);
}

/** gflow_task_wait until the task settles: each call waits at most 50 s and then answers its progress so far. */
async function waitForTask(taskId: string): Promise<ToolReply> {
  return waitFor(
    `task ${taskId} to settle`,
    async () => {
      const reply = await conn.call('gflow_task_wait', { task_id: taskId });
      return reply.structured['status'] === 'pending' ? undefined : reply;
    },
    150_000,
    0,
  );
}

const shown = async (taskId: string): Promise<Record<string, unknown>> =>
  (await conn.call('gflow_task_get', { task_id: taskId })).structured['task'] as Record<string, unknown>;

describe('journey 2: a client that speaks the Tasks extension', () => {
  it('gflow_generate_video answers a CreateTaskResult, and the requester follows it to the file', async () => {
    e2e.sim.received.clear();
    const requester = await connectTaskRequester(serve.url);
    try {
      const execution = await requester.session.callTool('gflow_generate_video', {
        prompt: 'a paper boat on a puddle',
        mode: 't2v',
        aspect: '16:9',
      });
      expect(execution.kind).toBe('task');
      const taskId = String(execution.handle?.taskId);
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as {
        isError?: boolean;
        structuredContent: Record<string, unknown>;
      };
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(result.structuredContent).toMatchObject({ status: 'completed', task_id: taskId });
      const file = fileOf(result.structuredContent);
      expect(file).toMatch(/\.mp4$/);
      expect(fs.existsSync(file)).toBe(true);
      expect(taskRow(e2e.dbPath, taskId)?.status).toBe('completed');
      expect(submits(e2e.sim)).toHaveLength(1);
    } finally {
      await requester.close();
    }
  }, 150_000);

  it("the conformance suite's tasks-capability-negotiation against gflow serve: advertised, and gated for a client that does not declare it", async () => {
    const run = await runConformanceScenario(String(serve.url), 'tasks-capability-negotiation');
    const status = (id: string) => run.checks.find((c) => c.id === id)?.status;
    expect(status('tasks-extension-advertised'), run.output.slice(-3000)).toBe('SUCCESS');
    expect(status('sep-2663-tasks-methods-non-declaring'), run.output.slice(-3000)).toBe('SUCCESS');
  }, 60_000);
});

describe('journey 2: a client without the extension', () => {
  it('wait=true answers the clip inline, as it always did (no task handle)', async () => {
    e2e.sim.received.clear();
    const reply = await conn.call('gflow_generate_video', { prompt: 'a kite over the dunes', mode: 't2v' });
    expect(reply.isError, JSON.stringify(reply.structured)).toBe(false);
    expect(reply.structured).toMatchObject({ status: 'completed' });
    expect(reply.structured).not.toHaveProperty('taskId');
    expect(fs.existsSync(fileOf(reply.structured))).toBe(true);
  }, 150_000);

  it('wait=false answers pending at once; gflow_task_get sees it run and gflow_task_wait follows it to the file', async () => {
    e2e.sim.received.clear();
    const taskId = await pending('gflow_generate_video', {
      prompt: 'a lighthouse at dusk',
      mode: 't2v',
      aspect: '9:16',
    });
    expect(['pending', 'working', 'completed']).toContain((await shown(taskId))['status']);
    const done = await waitForTask(taskId);
    expect(done.isError, JSON.stringify(done.structured)).toBe(false);
    expect(done.structured).toMatchObject({ status: 'completed', task_id: taskId });
    expect(fs.existsSync(fileOf(done.structured))).toBe(true);
    expect((await shown(taskId))['status']).toBe('completed');
    const listed = await conn.call('gflow_task_list', { status: 'completed' });
    expect((listed.structured['items'] as Array<{ task_id: string }>).map((t) => t.task_id)).toContain(taskId);
    expect(submits(e2e.sim)).toHaveLength(1);
  }, 180_000);

  it('gflow_task_cancel: a queued video is cancelled; a video past its submit is indeterminate (a credit may be spent)', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation');
    try {
      const stuck = await pending('gflow_generate_video', { prompt: 'a stuck generation', mode: 't2v' });
      const queued = await pending('gflow_generate_video', { prompt: 'queued behind it', mode: 't2v' });
      // The first job's submit reached Flow (which never answers); the second waits its turn.
      await waitFor('the stuck submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
      expect((await shown(stuck))['status']).toBe('working');

      const before = await conn.call('gflow_task_cancel', { task_id: queued });
      expect(before.structured['task']).toMatchObject({ status: 'cancelled', may_have_spent: false });
      const waited = await conn.call('gflow_task_wait', { task_id: queued });
      expect(waited.isError).toBe(true);
      expect(waited.structured).toMatchObject({
        status: 'cancelled',
        error: { type: expect.stringContaining('cancelled') },
      });

      const after = await conn.call('gflow_task_cancel', { task_id: stuck });
      expect(after.structured['task']).toMatchObject({ status: 'indeterminate', may_have_spent: true });
      expect(taskRow(e2e.dbPath, stuck)?.status).toBe('indeterminate');
      expect(submits(e2e.sim)).toHaveLength(1);
    } finally {
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);

  it('gflow_task_get refuses an unknown task id (reference-not-found)', async () => {
    const reply = await conn.call('gflow_task_get', { task_id: '00000000-0000-4000-8000-000000000000' });
    expect(reply.isError).toBe(true);
    expect(reply.structured).toMatchObject({ error: { type: expect.stringContaining('reference-not-found') } });
  });
});
