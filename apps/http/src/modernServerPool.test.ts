import type { Client } from '@modelcontextprotocol/client';
import { createMcpHandler, isJSONRPCResponse, type JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import { connectHttp } from '@gflow/testkit/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { createModernServerPool, isOwnResponse, type ModernServerPool } from './modernServerPool.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gate a tool call waits on, so a test decides when the handler finishes. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function setup(options: { size?: number } = {}): {
  pool: ModernServerPool;
  fetch: (request: Request) => Promise<Response>;
  gates: Array<{ wait: Promise<void>; open: () => void }>;
  started: () => number;
} {
  const gates: Array<{ wait: Promise<void>; open: () => void }> = [];
  let started = 0;
  let serial = 0;
  const pool = createModernServerPool(() => {
    const instance = (serial += 1);
    const server = new McpServer({ name: 'pool-test', version: '1' });
    server.registerTool('whoami', {}, () => ({
      content: [
        { type: 'text', text: JSON.stringify({ instance, client: server.server.getClientVersion()?.name ?? null }) },
      ],
    }));
    server.registerTool('slow', {}, async () => {
      started += 1;
      const g = gates.shift();
      await g?.wait;
      return { content: [{ type: 'text', text: JSON.stringify({ instance }) }] };
    });
    return server;
  }, options);
  const handler = createMcpHandler(() => pool.acquire(), { legacy: 'reject' });
  cleanups.push(() => handler.close());
  return { pool, fetch: (request) => handler.fetch(request), gates, started: () => started };
}

async function client(fetch: (request: Request) => Promise<Response>, name = 'pool-test-client'): Promise<Client> {
  const { client: c } = await connectHttp('http://127.0.0.1/mcp', { era: 'modern', name, fetch });
  cleanups.push(() => c.close());
  return c;
}

const textOf = (result: unknown): Record<string, unknown> =>
  JSON.parse(((result as { content: Array<{ text: string }> }).content[0] as { text: string }).text) as Record<
    string,
    unknown
  >;

/** A modern tools/call built by hand, with an envelope that carries no clientInfo. */
function bareCall(name: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

async function bodyOf(response: Response): Promise<{ result?: unknown }> {
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(data) as { result?: unknown };
}

describe('modern server pool', () => {
  it('serves sequential requests from one reused instance', async () => {
    const { pool, fetch } = setup();
    const c = await client(fetch);
    const instances = new Set<unknown>();
    for (let i = 0; i < 10; i++) instances.add(textOf(await c.callTool({ name: 'whoami', arguments: {} }))['instance']);
    // The discover probe and ten calls: a factory building per request would have made eleven.
    expect(instances.size).toBe(1);
    expect(pool.built).toBe(1);
    expect(pool.idle).toBe(1);
  });

  it('never hands one instance to two requests at once', async () => {
    const { pool, fetch, gates, started } = setup();
    const c = await client(fetch);
    const a = gate();
    const b = gate();
    gates.push(a, b);
    const first = c.callTool({ name: 'slow', arguments: {} });
    const second = c.callTool({ name: 'slow', arguments: {} });
    while (started() < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pool.idle).toBe(0);
    a.open();
    b.open();
    const ids = [textOf(await first)['instance'], textOf(await second)['instance']];
    expect(new Set(ids).size).toBe(2);
    expect(pool.built).toBe(2);
  });

  it('does not carry a client identity over to the next request', async () => {
    const { pool, fetch } = setup();
    const c = await client(fetch, 'first-caller');
    expect(textOf(await c.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({
      instance: 1,
      client: 'first-caller',
    });
    const response = await fetch(bareCall('whoami'));
    expect(response.status).toBe(200);
    expect(textOf((await bodyOf(response)).result)).toEqual({ instance: 1, client: null });
    expect(pool.built).toBe(1);
  });

  it('retires an instance whose client left before its handler finished', async () => {
    const { pool, fetch, gates, started } = setup();
    await client(fetch);
    expect([pool.built, pool.idle]).toEqual([1, 1]);
    const g = gate();
    gates.push(g);
    const abort = new AbortController();
    const pending = fetch(new Request(bareCall('slow'), { signal: abort.signal })).catch(() => undefined);
    while (started() < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pool.idle).toBe(0);
    abort.abort();
    await pending;
    g.open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.idle).toBe(0);
    // Instance 1 still runs the abandoned handler's tail: the next call is served by a new one.
    expect(textOf((await bodyOf(await fetch(bareCall('whoami')))).result)['instance']).toBe(2);
  });

  it('builds fresh instances after invalidate()', async () => {
    const { pool, fetch } = setup();
    const c = await client(fetch);
    expect(textOf(await c.callTool({ name: 'whoami', arguments: {} }))['instance']).toBe(1);
    pool.invalidate();
    expect(pool.idle).toBe(0);
    expect(textOf(await c.callTool({ name: 'whoami', arguments: {} }))['instance']).toBe(2);
    expect(textOf(await c.callTool({ name: 'whoami', arguments: {} }))['instance']).toBe(2);
  });

  it('drops an instance that was serving when invalidate() came', async () => {
    const { pool, fetch, gates, started } = setup();
    const c = await client(fetch);
    const g = gate();
    gates.push(g);
    const slow = c.callTool({ name: 'slow', arguments: {} });
    while (started() < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    pool.invalidate();
    g.open();
    expect(textOf(await slow)['instance']).toBe(1);
    expect(pool.idle).toBe(0);
    expect(textOf(await c.callTool({ name: 'whoami', arguments: {} }))['instance']).toBe(2);
  });

  it('keeps at most `size` idle instances', async () => {
    const { pool, fetch, gates, started } = setup({ size: 1 });
    const c = await client(fetch);
    const a = gate();
    const b = gate();
    gates.push(a, b);
    const calls = [c.callTool({ name: 'slow', arguments: {} }), c.callTool({ name: 'slow', arguments: {} })];
    while (started() < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    a.open();
    b.open();
    await Promise.all(calls);
    expect(pool.built).toBe(2);
    expect(pool.idle).toBe(1);
  });
});

describe('isOwnResponse (issue 45: no zod parse of each result)', () => {
  it('agrees with the SDK on the messages a server sends', () => {
    const messages: JSONRPCMessage[] = [
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } },
      { jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'bad' } },
      { jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: {} },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ];
    expect(messages.map(isOwnResponse)).toEqual(messages.map((m) => isJSONRPCResponse(m)));
    expect(messages.map(isOwnResponse)).toEqual([true, true, false, false]);
  });
});
