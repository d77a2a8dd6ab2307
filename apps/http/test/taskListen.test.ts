// Task status notifications over HTTP (SEP-2663): gflow serves a task-only subscriptions/listen
// from a client that declares the extension as an SSE stream (the SDK's router cannot), and
// refuses one from a client that does not (-32021); any other listen stays the SDK's.
import { afterEach, describe, expect, it } from 'vitest';
import { createGflowHttpApp } from '../src/index.js';
import { makeGflow, withHost } from './helpers.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function listenRequest(notifications: Record<string, unknown>, capabilities: Record<string, unknown>): Request {
  return withHost(
    new Request('http://127.0.0.1:8000/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: {
          notifications,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'listen-test', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    }),
  );
}

const events = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

async function app() {
  const gflow = await makeGflow().ready();
  const created = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000 });
  cleanups.push(async () => {
    await created.close();
    await gflow.close();
  });
  return { gflow, created };
}

describe('subscriptions/listen for task ids', () => {
  it('streams the ack, the settled task in full and the closing result, stamped with the subscription id', async () => {
    const { gflow, created } = await app();
    const tasks = gflow.catalog.tasks;
    const task = tasks.create({ profile: 'default', taskType: 't2i', payload: {} });
    const claimant = gflow.claimantFor('default');
    tasks.claim(task.taskId, claimant);
    tasks.complete(task.taskId, claimant, { status: 'completed', task_id: task.taskId, seed: 5 });
    const response = await created.fetch(listenRequest({ taskIds: [task.taskId, 'unknown-task'] }, TASKS));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const [ack, note, end] = events(await response.text());
    const stamp = { 'io.modelcontextprotocol/subscriptionId': 'sub-1' };
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [task.taskId] }, _meta: stamp },
    });
    expect(note).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId: task.taskId, status: 'completed', result: { structuredContent: { seed: 5 } }, _meta: stamp },
    });
    expect(end).toMatchObject({ id: 'sub-1', result: { resultType: 'complete', _meta: stamp } });
  });

  it('refuses task ids from a client that does not declare the extension (-32021)', async () => {
    const { created } = await app();
    const response = await created.fetch(listenRequest({ taskIds: ['t1'] }, {}));
    expect(await response.json()).toMatchObject({ id: 'sub-1', error: { code: -32021 } });
  });
});
