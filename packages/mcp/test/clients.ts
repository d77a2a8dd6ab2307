import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createGflowMcpServer, type GflowLike } from '../src/index.js';
import type { Gflow } from '@gflow/core';
import { afterEach } from 'vitest';

export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** The deployed shape, in process: createMcpHandler over the one factory (both eras). */
export function inProcessHandler(gflow: GflowLike): McpHttpHandler {
  return createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era }));
}

/** A v2 client on the handler: legacy by default, modern with versionNegotiation auto. */
export async function connectClient(handler: McpHttpHandler, era: Era): Promise<Client> {
  const client = new Client({ name: 'gflow-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}

/** A hand-built 2026-07-28 request (envelope + the three headers), for methods the client refuses to send. */
export async function rawModernRequest(handler: McpHttpHandler, method: string, params: Record<string, unknown>, name?: string): Promise<{ status: number; body: unknown }> {
  const response = await handler.fetch(
    new Request('http://test.local/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

/** A client, its server handler and runtime that a test opened. */
export interface OpenServer {
  readonly client: Client;
  readonly handler: McpHttpHandler;
  readonly gflow: Gflow;
}

/** The list a test file pushes its open servers to; each is closed after its test. */
export function closedAfterEach(): OpenServer[] {
  const open: OpenServer[] = [];
  afterEach(async () => {
    for (const { client, handler, gflow } of open.splice(0)) {
      await client.close();
      await handler.close();
      await gflow.close();
    }
  });
  return open;
}
