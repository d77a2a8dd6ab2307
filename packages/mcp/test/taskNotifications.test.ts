// Task status notifications (SEP-2663): a task-only subscriptions/listen from a client that
// declares the extension is acknowledged with the tasks it follows, hears notifications/tasks with
// the full task at each change, and closes once they have settled. Over stdio here (the real child);
// apps/http tests the HTTP stream.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@gflow/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { taskListenMessages, taskListenOf } from '../src/tasks/taskNotifications.js';
import { GO_QUESTION, makeTestGflow } from './testGflow.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = path.resolve(here, '../../../node_modules/.bin/tsx');
const SCRIPT = path.join(here, 'fixtures/stdioServer.ts');
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const meta = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'listen-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const listen = (id: number, taskIds: string[], capabilities: Record<string, unknown> = TASKS) => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications: { taskIds }, _meta: meta(capabilities) },
});

type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

describe('taskListenOf', () => {
  it('takes a task-only listen from a declaring client, and nothing else', () => {
    expect(taskListenOf(listen(1, ['a', 'a', 'b']))).toEqual({ id: 1, taskIds: ['a', 'b'] });
    expect(taskListenOf(listen(1, ['a'], {}))).toBeUndefined();
    const mixed = listen(1, ['a']);
    (mixed.params.notifications as Record<string, unknown>)['toolsListChanged'] = true;
    expect(taskListenOf(mixed)).toBeUndefined();
    expect(taskListenOf({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
  });
});

describe('taskListenMessages (in process)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('acknowledges the known tasks, says each change with the whole task, and closes when they settled', async () => {
    const { gflow } = makeTestGflow();
    closers.push(() => gflow.close());
    const { task_id: taskId } = (await gflow.runByName('gflow_test_task', { wait: false })) as { task_id: string };
    const seen: Message[] = [];
    const done = (async () => {
      for await (const message of taskListenMessages(
        gflow,
        { id: 9, taskIds: [taskId, 'no-such-task'] },
        new AbortController().signal,
      ))
        seen.push(message as Message);
    })();
    await waitFor('the task asking', () => seen.some((m) => m.params?.['status'] === 'input_required'));
    expect(seen[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId, status: 'input_required', inputRequests: { go: GO_QUESTION } },
    });
    await gflow.tasks.update(taskId, { go: { action: 'accept' } });
    await done;
    expect(seen.at(-2)).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'completed' } });
    expect(seen.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
  });
});

describe('task notifications over stdio (real child process)', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => child?.kill());

  it('the listen is answered by gflow (ack, notifications/tasks, closing result) and tasks/update moves it on', async () => {
    child = spawn(TSX, [SCRIPT], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies: Message[] = [];
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith('{')) replies.push(JSON.parse(line) as Message);
      }
    });
    child.stderr.resume();
    const send = (message: unknown) => void child?.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
    await waitFor('discover', () => replies.some((r) => r.id === 1), 120_000);
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'gflow_test_task', arguments: { wait: false }, _meta: meta() },
    });
    const call = await waitFor('the pending handle', () => replies.find((r) => r.id === 2));
    const taskId = String((call.result?.['structuredContent'] as { task_id: string }).task_id);
    send(listen(3, [taskId]));
    await waitFor('the task asking', () =>
      replies.some((r) => r.method === 'notifications/tasks' && r.params?.['status'] === 'input_required'),
    );
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tasks/update',
      params: { taskId, inputResponses: { go: { action: 'accept' } }, _meta: meta(TASKS) },
    });
    await waitFor('the subscription to close', () => replies.some((r) => r.id === 3));
    const notes = replies.filter((r) => r.method?.startsWith('notifications/'));
    expect(notes[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    expect(notes.at(-1)).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'completed' } });
    expect(replies.find((r) => r.id === 3)).toMatchObject({ result: { resultType: 'complete' } });
  }, 180_000);
});
