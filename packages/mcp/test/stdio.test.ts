import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectStdio } from '@gflow/testkit/cli';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = path.resolve(here, '../../../node_modules/.bin/tsx');
const SCRIPT = path.join(here, 'fixtures/stdioServer.ts');

function serverParams(env: Record<string, string> = {}) {
  return { command: TSX, args: [SCRIPT], env: { ...(process.env as Record<string, string>), ...env } };
}

describe('stdio transport (real child process)', () => {
  it.each(['legacy', 'modern'] as const)('serves the %s era; stray prints do not corrupt stdout', async (era) => {
    const conn = await connectStdio(serverParams(), { era, name: 'stdio-test' });
    const { client } = conn;
    try {
      expect(client.getProtocolEra()).toBe(era);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('gflow_generate_image');
      const result = await client.callTool({ name: 'gflow_list_models', arguments: {} });
      expect(result.structuredContent).toMatchObject({ status: 'ok' });
      const failed = await client.callTool({ name: 'gflow_test_auth_expired', arguments: {} });
      expect(failed.structuredContent).toMatchObject({ status: 'error', error: { status: 401 } });
    } finally {
      await conn.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(conn.stderr()).toContain('stray output that would corrupt stdout');
  });

  it('serves a v1 SDK client (legacy handshake) and honours no-spend', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1StdioClientTransport({ ...serverParams({ TEST_NO_SPEND: '1' }), stderr: 'ignore' }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('gflow_generate_image');
      expect(names).not.toContain('gflow_generate_video');
      expect(names).toContain('gflow_list_models');
      const prompt = await client.getPrompt({ name: 'expand_prompt', arguments: { subject: 'a lighthouse' } });
      expect(JSON.stringify(prompt)).toContain('a lighthouse');
    } finally {
      await client.close();
    }
  });

  it('stops when the client closes stdin', async () => {
    const conn = await connectStdio(serverParams(), { name: 'stdio-test' });
    await conn.client.listTools();
    await conn.close();
    await expect.poll(() => conn.stderr(), { timeout: 60_000 }).toContain('stdio server closed');
  });
});
