// Server-directed task creation (SEP-2663) on tools/call, in both eras: a tool that runs as a task
// answers a flat CreateTaskResult to a request that declares the extension, and stays synchronous
// (or keeps gflow's own wait=false handle) for one that does not.
import type { Client } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { waitFor } from '@gflow/testkit';
import { TASKS_CAPABILITIES } from '@gflow/testkit/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERAS, type Era, closedAfterEach, connectClient, inProcessHandler, rawModernRequest } from './clients.js';
import { GO_QUESTION, makeTestGflow } from './testGflow.js';

const open = closedAfterEach();
const declared = { _meta: { [CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITIES } };
const loose = z.looseObject({});

async function setup(era: Era) {
  const { gflow } = makeTestGflow();
  const handler = inProcessHandler(gflow);
  const client = await connectClient(handler, era);
  open.push({ client, handler, gflow });
  return { client, gflow, handler };
}

/** tools/call declaring the extension on the request. The v2 client refuses a `task` result on the modern wire, so that era goes by hand. */
async function callDeclaring(
  era: Era,
  setupResult: Awaited<ReturnType<typeof setup>>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (era === 'legacy')
    return setupResult.client.request({ method: 'tools/call', params: { name, arguments: args, ...declared } }, loose);
  const raw = await rawModernRequest(
    setupResult.handler,
    'tools/call',
    { name, arguments: args },
    name,
    TASKS_CAPABILITIES,
  );
  const body = raw.body as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`tools/call failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

const tasksGet = (client: Client, taskId: string) =>
  client.request({ method: 'tasks/get', params: { taskId, ...declared } }, loose);

describe.each(ERAS)('tools/call and the Tasks extension (%s era)', (era) => {
  it('a declaring request gets a flat CreateTaskResult whose task tasks/get resolves at once; it asks, is answered, completes', async () => {
    const ctx = await setup(era);
    const created = await callDeclaring(era, ctx, 'gflow_test_task', { label: 'kite', wait: true });
    expect(created).toMatchObject({ taskId: expect.any(String), ttlMs: null, pollIntervalMs: expect.any(Number) });
    if (era === 'modern') expect(created['resultType']).toBe('task');
    for (const key of ['result', 'error', 'inputRequests', 'requestState', 'task'])
      expect(created).not.toHaveProperty(key);
    const taskId = String(created['taskId']);
    // Durable before the answer: the row is there, whoever runs it.
    expect((await ctx.gflow.tasks.get(taskId))?.status).toBe('working');
    const asking = await waitFor('the task to ask', async () => {
      const task = await tasksGet(ctx.client, taskId);
      return task['status'] === 'input_required' ? task : undefined;
    });
    expect(asking['inputRequests']).toEqual({ go: GO_QUESTION });
    await ctx.client.request(
      { method: 'tasks/update', params: { taskId, inputResponses: { go: { action: 'accept' } }, ...declared } },
      loose,
    );
    const done = await waitFor('the task to complete', async () => {
      const task = await tasksGet(ctx.client, taskId);
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toMatchObject({
      structuredContent: { status: 'completed', label: 'kite', answer: { action: 'accept' }, task_id: taskId },
    });
    expect((await ctx.gflow.tasks.get(taskId))?.status).toBe('completed');
  });

  it("without the extension the same tool answers inline, and wait=false keeps gflow's own pending handle", async () => {
    const { client, gflow } = await setup(era);
    const inline = await client.callTool({ name: 'gflow_test_task', arguments: { label: 'a' } });
    expect(inline.structuredContent).toEqual({ status: 'completed', label: 'a', inline: true });
    expect(inline).not.toHaveProperty('taskId');
    const handle = await client.callTool({ name: 'gflow_test_task', arguments: { wait: false } });
    expect(handle.structuredContent).toMatchObject({ status: 'pending', task_id: expect.any(String) });
    expect(handle).not.toHaveProperty('taskId');
    const taskId = String((handle.structuredContent as { task_id: string }).task_id);
    expect((await gflow.tasks.get(taskId))?.status).toBe('working');
    await gflow.tasks.cancel(taskId);
    expect((await gflow.tasks.get(taskId))?.status).toBe('cancelled');
  });

  it('an answer that queued nothing is the tool result itself (the immediate path), also for a declaring request', async () => {
    const ctx = await setup(era);
    const refused = await callDeclaring(era, ctx, 'gflow_test_task', { refuse: true });
    expect(refused).not.toHaveProperty('taskId');
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: 'failed' } });
    const bad = await callDeclaring(era, ctx, 'gflow_test_task', { label: 42 });
    expect(bad).toMatchObject({
      isError: true,
      structuredContent: { error: { type: expect.stringContaining('bad-parameter') } },
    });
  });

  it('a tool that only runs as a task refuses a request without the extension with -32021', async () => {
    const ctx = await setup(era);
    await expect(ctx.client.callTool({ name: 'gflow_test_task_required', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const created = await callDeclaring(era, ctx, 'gflow_test_task_required', {});
    expect(created['taskId']).toEqual(expect.any(String));
    await ctx.gflow.tasks.cancel(String(created['taskId']));
  });

  it('advertises which tools run as tasks in their _meta', async () => {
    const { client } = await setup(era);
    const { tools } = await client.listTools();
    const meta = (name: string) => tools.find((t) => t.name === name)?._meta;
    expect(meta('gflow_test_task')).toMatchObject({ 'dev.gflow/taskSupport': 'optional' });
    expect(meta('gflow_test_task_required')).toMatchObject({ 'dev.gflow/taskSupport': 'required' });
    expect(meta('gflow_list_models')).not.toHaveProperty('dev.gflow/taskSupport');
  });
});
