import { type Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadOperations } from '@gflow/core/surfaces';
import { mcpClient } from '@gflow/testkit/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { createGflowHttpApp, startGflowHttpServer, type GflowHttpServer } from '../src/index.js';
import { TOKEN, connect, makeGflow } from './helpers.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  options: { token?: string; transport?: 'http' | 'sse'; noSpend?: boolean } = {},
): Promise<GflowHttpServer> {
  const gflow = makeGflow(options.noSpend ? { GFLOW_MCP_NO_SPEND: '1' } : {});
  const server = await startGflowHttpServer(gflow, {
    host: '127.0.0.1',
    port: 0,
    ...(options.token ? { token: options.token } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  cleanups.push(() => server.close());
  return server;
}

function track(client: Client): Client {
  cleanups.push(() => client.close());
  return client;
}

describe('in-process /mcp (handler.fetch through the whole app)', () => {
  it.each(['legacy', 'modern'] as const)('serves the %s era with a bearer token', async (era) => {
    const gflow = makeGflow();
    const created = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000, token: TOKEN });
    cleanups.push(async () => {
      await created.close();
      await gflow.close();
    });
    const client = track(await connect('http://127.0.0.1:8000/mcp', era, { token: TOKEN, fetch: created.fetch }));
    expect(client.getProtocolEra()).toBe(era);
    const result = await client.callTool({ name: 'gflow_list_models', arguments: {} });
    expect(result.structuredContent).toMatchObject({ status: 'ok' });
  });
  it('reuses modern instances; notifyListChanged retires them', async () => {
    const gflow = makeGflow();
    const created = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000 });
    cleanups.push(async () => {
      await created.close();
      await gflow.close();
    });
    const client = track(await connect('http://127.0.0.1:8000/mcp', 'modern', { fetch: created.fetch }));
    for (let i = 0; i < 5; i++) await client.callTool({ name: 'gflow_list_models', arguments: {} });
    expect(created.modernPool.built).toBe(1);
    expect(created.modernPool.idle).toBe(1);
    created.notifyListChanged('tools');
    expect(created.modernPool.idle).toBe(0);
    await client.callTool({ name: 'gflow_list_models', arguments: {} });
    expect(created.modernPool.built).toBe(2);
  });
});

describe('real HTTP on 127.0.0.1 (ephemeral port)', () => {
  it.each(['legacy', 'modern'] as const)('serves the %s era; no-spend removes the spending tools', async (era) => {
    const spending = await start({ token: TOKEN });
    const client = track(await connect(`${spending.url}/mcp`, era, { token: TOKEN }));
    expect(client.getProtocolEra()).toBe(era);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['gflow_generate_image', 'gflow_generate_video', 'gflow_list_models']),
    );

    const readOnly = await start({ noSpend: true });
    const readOnlyClient = track(await connect(`${readOnly.url}/mcp`, era));
    const readOnlyNames = (await readOnlyClient.listTools()).tools.map((t) => t.name);
    // Exactly the spending tools go: every operation of kind spend, and nothing else.
    const spendTools = OPERATIONS.filter((o) => o.kind === 'spend').map((o) => o.mcpName);
    expect(spendTools).toEqual(expect.arrayContaining(['gflow_generate_image', 'gflow_generate_video']));
    expect(readOnlyNames).not.toContain('gflow_generate_image');
    expect([...readOnlyNames].sort()).toEqual(names.filter((n) => !spendTools.includes(n)).sort());
  });

  it('gives a legacy client a session and pushes list_changed on its GET stream', async () => {
    const server = await start();
    const client = track(await connect(`${server.url}/mcp`, 'legacy'));
    expect(server.app.sessionCount()).toBe(1);
    await client.listTools();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    // The client opens the GET stream after initialization; give it a moment to attach.
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.app.notifyListChanged('tools');
    await expect(
      Promise.race([
        changed.then(() => 'received'),
        new Promise((resolve) => setTimeout(() => resolve('timeout'), 3_000)),
      ]),
    ).resolves.toBe('received');
  });

  it('pushes list_changed to a modern client on its subscriptions/listen stream', async () => {
    const server = await start();
    const client = track(await connect(`${server.url}/mcp`, 'modern'));
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    cleanups.push(() => subscription.close());
    server.app.notifyListChanged('tools');
    await expect(
      Promise.race([
        changed.then(() => 'received'),
        new Promise((resolve) => setTimeout(() => resolve('timeout'), 3_000)),
      ]),
    ).resolves.toBe('received');
  });

  it('ends a legacy session on DELETE', async () => {
    const server = await start();
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
    const client = track(mcpClient('legacy', 'http-test'));
    await client.connect(transport);
    expect(server.app.sessionCount()).toBe(1);
    await transport.terminateSession();
    expect(server.app.sessionCount()).toBe(0);
  });

  it('refuses an unknown legacy session id with 404', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(404);
  });

  it('closes gracefully: sessions end and the port stops listening', async () => {
    const gflow = makeGflow();
    const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0 });
    const client = await connect(`${server.url}/mcp`, 'legacy');
    await client.listTools();
    await server.close();
    await client.close();
    expect(server.app.sessionCount()).toBe(0);
    await expect(fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

describe('deprecated HTTP+SSE transport', () => {
  it('serves a client over /sse + /messages/ when enabled', async () => {
    const server = await start({ transport: 'sse', token: TOKEN });
    const client = track(mcpClient('legacy', 'sse-test'));
    await client.connect(
      new SSEClientTransport(new URL(`${server.url}/sse`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        eventSourceInit: {
          fetch: (url, init) =>
            fetch(url, {
              ...init,
              headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${TOKEN}` },
            }),
        },
      }),
    );
    const result = await client.callTool({ name: 'gflow_list_models', arguments: {} });
    expect(result.structuredContent).toMatchObject({ status: 'ok' });
    const prompt = await client.getPrompt({ name: 'expand_prompt', arguments: { subject: 'a whale' } });
    expect(JSON.stringify(prompt)).toContain('a whale');
  });

  it('is absent unless enabled', async () => {
    const server = await start();
    expect((await fetch(`${server.url}/sse`)).status).toBe(404);
  });
});
