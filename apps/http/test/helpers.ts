import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp } from '@gflow/testkit/mcp';
import { createGflow, type Gflow } from '@gflow/core';

export const TOKEN = 'test-token-0123456789abcdef';

export function makeGflow(
  env: Record<string, string> = {},
  logger: Gflow['logger'] = { debug() {}, info() {}, warn() {}, error() {} },
): Gflow {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-http-'));
  return createGflow({
    surface: 'http',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR', ...env },
    cwd: home,
    logger,
  });
}

/** The kit's client (legacy, or modern with `auto`) on a URL, optionally through a fetch function. */
export async function connect(
  url: string,
  era: 'legacy' | 'modern',
  options: { token?: string; fetch?: (request: Request) => Promise<Response> } = {},
): Promise<Client> {
  const answer = options.fetch;
  const connection = await connectHttp(url, {
    era,
    name: 'http-test',
    ...(options.token ? { token: options.token } : {}),
    ...(answer ? { fetch: (request: Request) => answer(withHost(request)) } : {}),
  });
  return connection.client;
}

/** In-process requests carry no Host header by themselves; a real client always sends one. */
export function withHost(request: Request): Request {
  if (request.headers.has('host')) return request;
  const headers = new Headers(request.headers);
  headers.set('host', new URL(request.url).host);
  return new Request(request, { headers });
}
