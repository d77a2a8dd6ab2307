import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createGflow, type Gflow } from '@gflow/core';

export const TOKEN = 'test-token-0123456789abcdef';

export function makeGflow(env: Record<string, string> = {}, logger: Gflow['logger'] = { debug() {}, info() {}, warn() {}, error() {} }): Gflow {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-http-'));
  return createGflow({ surface: 'http', env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR', ...env }, cwd: home, logger });
}

/** A v2 client (legacy by default, modern with `auto`) on a URL, optionally through a fetch function. */
export async function connect(
  url: string,
  era: 'legacy' | 'modern',
  options: { token?: string; fetch?: (request: Request) => Promise<Response> } = {},
): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    ...(options.fetch ? { fetch: (u: string | URL, init?: RequestInit) => options.fetch!(withHost(new Request(u, init))) } : {}),
  });
  await client.connect(transport);
  return client;
}

/** In-process requests carry no Host header by themselves; a real client always sends one. */
export function withHost(request: Request): Request {
  if (request.headers.has('host')) return request;
  const headers = new Headers(request.headers);
  headers.set('host', new URL(request.url).host);
  return new Request(request, { headers });
}
