import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { TASKS_CAPABILITIES } from '@gflow/testkit/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGflowMcpServer } from '../src/index.js';
import { TASKS_EXTENSION } from '../src/tasks/tasksExtension.js';
import { ERAS, closedAfterEach, connectClient, rawModernRequest, type Era } from './clients.js';
import { makeTestGflow } from './testGflow.js';

const KNOWN_ISSUES = `# Known issues

### wait=true can outlast the client's tool timeout

Status: by design

Raise the timeout.

### A task id is a bearer capability!

**Status:** documented

Anyone with the id.

\`\`\`
### not a heading inside a fence
\`\`\`

## Other

### Huge section

Status: open

${'x'.repeat(40_000)}
`;

const open = closedAfterEach();

async function setup(era: Era, options: { noSpend?: boolean } = {}) {
  const { gflow } = makeTestGflow(options);
  const docsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-docs-'));
  fs.writeFileSync(path.join(docsDir, 'KNOWN_ISSUES.md'), KNOWN_ISSUES);
  const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era, docsDir }));
  const client = await connectClient(handler, era);
  open.push({ client, handler, gflow });
  return { client, gflow };
}

const lastHandler = (): McpHttpHandler => {
  const last = open.at(-1);
  if (!last) throw new Error('no handler');
  return last.handler;
};

const textOf = (contents: ReadonlyArray<object>): string => {
  const first = contents[0];
  return first && 'text' in first ? String(first.text) : '';
};

describe.each(ERAS)('prompts, resources and tasks (%s era)', (era) => {
  it('lists and renders the two prompts', async () => {
    const { client } = await setup(era);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['create_character', 'expand_prompt']);
    const expand = prompts.find((p) => p.name === 'expand_prompt');
    expect(expand?.arguments?.find((a) => a.name === 'subject')?.required).toBe(true);
    const result = await client.getPrompt({
      name: 'expand_prompt',
      arguments: { subject: 'a red fox', camera: 'low-angle shot' },
    });
    const text = (result.messages[0]?.content as { text: string }).text;
    expect(text).toContain('Subject: a red fox');
    expect(text).toContain('Composition: low-angle shot');
    expect(text).toMatch(/Subject.*Action.*Location.*Composition.*Style/s);
    const character = await client.getPrompt({ name: 'create_character', arguments: { name: 'Mira' } });
    const sheet = (character.messages[0]?.content as { text: string }).text;
    expect(sheet).toContain('Gender: neutral');
    expect(sheet).toContain('@Mira');
  });

  it('refuses a prompt without its required argument', async () => {
    const { client } = await setup(era);
    await expect(client.getPrompt({ name: 'expand_prompt', arguments: {} })).rejects.toThrow();
  });

  it('completes prompt arguments', async () => {
    const { client } = await setup(era);
    const camera = await client.complete({
      ref: { type: 'ref/prompt', name: 'expand_prompt' },
      argument: { name: 'camera', value: 'low' },
    });
    expect(camera.completion.values).toEqual(['low-angle shot']);
    const lighting = await client.complete({
      ref: { type: 'ref/prompt', name: 'expand_prompt' },
      argument: { name: 'lighting', value: 'GOLD' },
    });
    expect(lighting.completion.values).toEqual(['golden hour']);
    const gender = await client.complete({
      ref: { type: 'ref/prompt', name: 'create_character' },
      argument: { name: 'gender', value: 'n' },
    });
    expect(gender.completion.values).toEqual(['neutral', 'non-binary']);
    // A later word's start matches too, after the values that start with it.
    const setting = await client.complete({
      ref: { type: 'ref/prompt', name: 'expand_prompt' },
      argument: { name: 'setting', value: 'be' },
    });
    expect(setting.completion.values).toContain('a beach at sunset');
  });

  it('refuses a create_character gender outside its list', async () => {
    const { client } = await setup(era);
    await expect(
      client.getPrompt({ name: 'create_character', arguments: { name: 'Mira', gender: 'dragon' } }),
    ).rejects.toThrow();
    const ok = await client.getPrompt({ name: 'create_character', arguments: { name: 'Mira', gender: 'female' } });
    expect((ok.messages[0]?.content as { text: string }).text).toContain('Gender: female');
  });

  it('lists the resources and the templates (an empty catalog lists no media or projects)', async () => {
    const { client } = await setup(era);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'gflow://db/schema',
      'gflow://docs/known-issues',
      'gflow://docs/mcp-guide',
      'ui://gflow/result.html',
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'gflow://docs/known-issues/{slug}',
      'gflow://media/{media_id}',
      'gflow://projects/{project_id}',
      'gflow://tasks/{task_id}',
    ]);
  });

  it('serves the agent guide, with a different text in no-spend mode', async () => {
    const spending = await setup(era);
    const guide = textOf((await spending.client.readResource({ uri: 'gflow://docs/mcp-guide' })).contents);
    expect(guide).toContain('gflow_generate_video');
    expect(guide).toContain('tasks/get');
    // A client without the Tasks extension follows its wait=false jobs with the task tools.
    for (const tool of ['gflow_task_wait', 'gflow_task_get', 'gflow_task_cancel', 'gflow_task_list'])
      expect(guide).toContain(tool);
    // The warm lease and its hand-off (issue 27), and how to read a 409.
    expect(guide).toContain('gives the profile up within about a second');
    expect(guide).toContain('409 `profile-locked`');
    // How to spend safely (issue 43 item 5): ask first, cap, retry without paying twice, stop.
    for (const rule of ['dry_run: true', 'max_credits: N', 'budget-exceeded', 'idempotency_key', 'gflow_task_resume'])
      expect(guide).toContain(rule);
    const readOnly = await setup(era, { noSpend: true });
    const noSpendGuide = textOf((await readOnly.client.readResource({ uri: 'gflow://docs/mcp-guide' })).contents);
    expect(noSpendGuide).toContain('no-spend');
    expect(noSpendGuide).not.toContain('- gflow_generate_video —');
    // It names every spending tool it left out, each by the name a client would look for.
    for (const tool of ['gflow_generate_image', 'gflow_extend_video', 'gflow_generate_chain', 'gflow_task_resume'])
      expect(noSpendGuide).toMatch(new RegExp(`spending tools \\([^)]*${tool}[^)]*\\) are not registered`));
    expect(noSpendGuide).not.toEqual(guide);
    // initialize's instructions and the prompts' texts name no tool the no-spend server lacks.
    expect(spending.client.getInstructions()).toContain('tasks/get');
    expect(spending.client.getInstructions()).toContain('gflow_task_wait');
    const said = [readOnly.client.getInstructions() ?? ''];
    for (const [name, args] of [
      ['expand_prompt', { subject: 'a fox' }],
      ['create_character', { name: 'Mira' }],
    ] as const) {
      const prompt = await readOnly.client.getPrompt({ name, arguments: args });
      said.push((prompt.messages[0]?.content as { text: string }).text);
    }
    for (const text of said) expect(text).not.toMatch(/gflow_generate_|tasks\/get|wait=false/);
    expect(said[0]).toContain('no-spend');
  });

  it('serves a bounded known-issues index, one line per ### heading', async () => {
    const { client } = await setup(era);
    const index = textOf((await client.readResource({ uri: 'gflow://docs/known-issues' })).contents);
    const lines = index.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      "- wait-true-can-outlast-the-client-s-tool-timeout — wait=true can outlast the client's tool timeout — Status: by design",
      '- a-task-id-is-a-bearer-capability — A task id is a bearer capability! — Status: documented',
      '- huge-section — Huge section — Status: open',
    ]);
    expect(Buffer.byteLength(index)).toBeLessThan(8 * 1024);
  });

  it('serves one known issue by slug, capped at 16 KB, and refuses an unknown slug', async () => {
    const { client } = await setup(era);
    const one = textOf(
      (await client.readResource({ uri: 'gflow://docs/known-issues/a-task-id-is-a-bearer-capability' })).contents,
    );
    expect(one).toContain('Anyone with the id.');
    expect(one).not.toContain('Raise the timeout');
    expect(one).toContain('not a heading inside a fence');
    const huge = textOf((await client.readResource({ uri: 'gflow://docs/known-issues/huge-section' })).contents);
    expect(Buffer.byteLength(huge)).toBeLessThanOrEqual(16 * 1024);
    expect(huge).toContain('truncated');
    await expect(client.readResource({ uri: 'gflow://docs/known-issues/no-such-issue' })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('completes known-issue slugs', async () => {
    const { client } = await setup(era);
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'gflow://docs/known-issues/{slug}' },
      argument: { name: 'slug', value: 'wa' },
    });
    expect(result.completion.values).toEqual(['wait-true-can-outlast-the-client-s-tool-timeout']);
  });

  it('serves the catalog schema SQL', async () => {
    const { client, gflow } = await setup(era);
    const sql = textOf((await client.readResource({ uri: 'gflow://db/schema' })).contents);
    expect(sql).toBe(await gflow.schemaSql());
    expect(sql).toMatch(/CREATE TABLE/i);
  });

  const taskSchema = z.looseObject({
    taskId: z.string(),
    status: z.string(),
    ttlMs: z.null(),
    pollIntervalMs: z.number().int().positive(),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    statusMessage: z.string().optional(),
    result: z
      .looseObject({ isError: z.boolean().optional(), structuredContent: z.record(z.string(), z.unknown()).optional() })
      .optional(),
  });
  const ack = z.looseObject({});
  /** The Tasks extension, declared on the request itself (SEP-2663: per request, whatever initialize said). */
  const declared = { _meta: { [CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITIES } };
  const getTask = (client: Client, taskId: string) =>
    client.request({ method: 'tasks/get', params: { taskId, ...declared } }, taskSchema);
  const cancel = (client: Client, taskId: string) =>
    client.request({ method: 'tasks/cancel', params: { taskId, ...declared } }, ack);
  const ackKeys = (reply: Record<string, unknown>): string[] =>
    Object.keys(reply).filter((k) => k !== '_meta' && k !== 'resultType');

  it('tasks/get follows a task from working to completed, with the wait=true reply as result', async () => {
    const { client, gflow } = await setup(era);
    const tasks = (await gflow.ready()).catalog.tasks;
    const task = tasks.create({ profile: 'default', taskType: 't2i', payload: { prompt: 'a cat' } });
    expect(await getTask(client, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working', ttlMs: null });
    const claimant = gflow.claimantFor('default');
    tasks.claim(task.taskId, claimant);
    expect((await getTask(client, task.taskId)).status).toBe('working');
    const reply = {
      status: 'completed',
      task_id: task.taskId,
      files: [path.join(gflow.settings.outputDir, 'a.png')],
      seed: 3,
    };
    tasks.complete(task.taskId, claimant, reply);
    const done = await getTask(client, task.taskId);
    expect(done.status).toBe('completed');
    expect(done.result?.isError).toBeFalsy();
    expect(done.result?.structuredContent).toMatchObject({ status: 'completed', seed: 3 });
  });

  it('gflow://tasks/{task_id} reads what tasks/get answers (for the MCP App view); an unknown id is not found', async () => {
    const { client, gflow } = await setup(era);
    const tasks = (await gflow.ready()).catalog.tasks;
    const task = tasks.create({ profile: 'default', taskType: 't2i', payload: { prompt: 'a heron' } });
    const read = async () =>
      JSON.parse(textOf((await client.readResource({ uri: `gflow://tasks/${task.taskId}` })).contents)) as unknown;
    // The same fields (a modern reply adds its own envelope members, resultType and serverInfo).
    const pending = (await read()) as Record<string, unknown>;
    expect(pending).toMatchObject({ taskId: task.taskId, status: 'working', statusMessage: 'queued' });
    const { _meta: _readMeta, ...fields } = pending;
    expect(await getTask(client, task.taskId)).toMatchObject(fields);
    const claimant = gflow.claimantFor('default');
    tasks.claim(task.taskId, claimant);
    tasks.complete(task.taskId, claimant, { status: 'completed', task_id: task.taskId, seed: 4 });
    expect(await read()).toMatchObject({ status: 'completed', result: { structuredContent: { seed: 4 } } });
    await expect(client.readResource({ uri: 'gflow://tasks/no-such-task' })).rejects.toThrow(/Unknown task/);
  });

  it('tasks/get reports a failed generation as completed with result.isError', async () => {
    const { client, gflow } = await setup(era);
    const tasks = (await gflow.ready()).catalog.tasks;
    const task = tasks.create({ profile: 'default', taskType: 't2v', payload: {} });
    const claimant = gflow.claimantFor('default');
    tasks.claim(task.taskId, claimant);
    const { ContentPolicyError } = await import('@gflow/errors');
    tasks.fail(task.taskId, claimant, new ContentPolicyError('Flow refused the prompt.'));
    const failed = await getTask(client, task.taskId);
    expect(failed.status).toBe('completed');
    expect(failed.result?.isError).toBe(true);
    expect(failed.result?.structuredContent).toMatchObject({
      status: 'failed',
      task_id: task.taskId,
      task_type: 't2v',
    });
  });

  it('a task whose process died is failed, with an inlined -32603 error and no result', async () => {
    const { client, gflow } = await setup(era);
    const tasks = (await gflow.ready()).catalog.tasks;
    const task = tasks.create({ profile: 'default', taskType: 't2i', payload: {} });
    tasks.claim(task.taskId, 'mcp:default:999999:deadbeef');
    tasks.settleAbandoned({ isAlive: () => false });
    const failed = await client.request(
      { method: 'tasks/get', params: { taskId: task.taskId, ...declared } },
      taskSchema.extend({ error: z.looseObject({ code: z.number(), message: z.string() }) }),
    );
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed.error.message).toMatch(/exited before anything was submitted/);
    expect(failed).not.toHaveProperty('result');
  });

  it('tasks/cancel answers an empty ack, also for a settled task; tasks/get then says cancelled; an unknown id is -32602', async () => {
    const { client, gflow } = await setup(era);
    const task = (await gflow.ready()).catalog.tasks.create({ profile: 'default', taskType: 't2i', payload: {} });
    expect(ackKeys(await cancel(client, task.taskId))).toEqual([]);
    expect((await getTask(client, task.taskId)).status).toBe('cancelled');
    expect(ackKeys(await cancel(client, task.taskId))).toEqual([]);
    await expect(cancel(client, 'no-such-task')).rejects.toMatchObject({ code: -32602 });
  });

  it('tasks/update acks for a known task (answers nobody asked for are ignored) and is -32602 for an unknown one', async () => {
    const { client, gflow } = await setup(era);
    const task = (await gflow.ready()).catalog.tasks.create({ profile: 'default', taskType: 't2i', payload: {} });
    const update = (taskId: string) =>
      client.request(
        { method: 'tasks/update', params: { taskId, inputResponses: { nobody: { action: 'accept' } }, ...declared } },
        ack,
      );
    expect(ackKeys(await update(task.taskId))).toEqual([]);
    expect((await getTask(client, task.taskId)).status).toBe('working');
    await expect(update('no-such-task')).rejects.toMatchObject({ code: -32602 });
  });

  it('without the extension on the request, tasks/get, tasks/update and tasks/cancel answer -32021 naming it', async () => {
    const { client, gflow } = await setup(era);
    const task = (await gflow.ready()).catalog.tasks.create({ profile: 'default', taskType: 't2i', payload: {} });
    for (const [method, params] of [
      ['tasks/get', { taskId: task.taskId }],
      ['tasks/update', { taskId: task.taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId: task.taskId }],
    ] as const) {
      await expect(client.request({ method, params }, ack), method).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      });
    }
    // Nothing was cancelled.
    expect((await gflow.tasks.get(task.taskId))?.status).toBe('pending');
  });

  it('tasks/get refuses an unknown task id, and tasks/result does not exist', async () => {
    const { client } = await setup(era);
    await expect(getTask(client, 'no-such-task')).rejects.toMatchObject({ code: -32602 });
    if (era === 'legacy') {
      await expect(
        client.request({ method: 'tasks/result', params: { taskId: 'x', ...declared } }, ack),
      ).rejects.toMatchObject({ code: -32601 });
    } else {
      // The v2 client refuses to send a method the 2026-07-28 wire lacks; send it by hand.
      const raw = await rawModernRequest(lastHandler(), 'tasks/result', { taskId: 'x' }, 'x', TASKS_CAPABILITIES);
      expect(raw.body).toMatchObject({ error: { code: -32601 } });
    }
  });
});

describe('modern-only wire details', () => {
  it('advertises the Tasks extension and cache hints on list results', async () => {
    const { client } = await setup('modern');
    const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
    expect(caps?.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    const hint = z.looseObject({ ttlMs: z.number(), cacheScope: z.string() });
    for (const method of ['tools/list', 'prompts/list', 'resources/templates/list'] as const) {
      const result = await client.request({ method, params: {} }, hint);
      expect(result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'private' });
    }
    // resources/list carries the newest catalogued media and projects: 30 s.
    expect(await client.request({ method: 'resources/list', params: {} }, hint)).toMatchObject({
      ttlMs: 30_000,
      cacheScope: 'private',
    });
    const read = await client.request({ method: 'resources/read', params: { uri: 'gflow://docs/mcp-guide' } }, hint);
    expect(read).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
  });
});
