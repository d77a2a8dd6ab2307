import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createGflowMcpServer, type GflowLike } from '../src/index.js';

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
