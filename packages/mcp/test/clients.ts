import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { type Era, connectHttp } from '@gflow/testkit/mcp';
import { createGflowMcpServer, type GflowLike } from '../src/index.js';
import type { Gflow } from '@gflow/core';
import { afterEach } from 'vitest';

export { ERAS, type Era } from '@gflow/testkit/mcp';

/** The deployed shape, in process: createMcpHandler over the one factory (both eras). */
export function inProcessHandler(gflow: GflowLike): McpHttpHandler {
  return createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era }));
}

/** The kit's client (legacy, or modern with versionNegotiation auto) on the handler, in process; `capabilities` are what it declares. */
export async function connectClient(
  handler: McpHttpHandler,
  era: Era,
  capabilities?: ClientCapabilities,
): Promise<Client> {
  const fetch = (request: Request) => handler.fetch(request);
  return (await connectHttp('http://test.local/mcp', { era, fetch, ...(capabilities ? { capabilities } : {}) })).client;
}

/** A hand-built 2026-07-28 request (envelope + the three headers), for methods the client refuses to send. */
export async function rawModernRequest(
  handler: McpHttpHandler,
  method: string,
  params: Record<string, unknown>,
  name?: string,
  capabilities: ClientCapabilities = {},
): Promise<{ status: number; body: unknown }> {
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
            'io.modelcontextprotocol/clientCapabilities': capabilities,
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
