import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv, makeHome } from './cliHarness.js';

async function toolNames(args: readonly string[]): Promise<{ names: string[]; server?: string }> {
  const home = makeHome();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'run', ...args], env: cliEnv(home) as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'gflow-cli-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const server = client.getServerVersion()?.name;
    return { names: tools.map((t) => t.name), ...(server ? { server } : {}) };
  } finally {
    await client.close();
  }
}

describe('gflow mcp run', () => {
  it('answers an MCP client over stdio (stdout carries JSON-RPC only)', async () => {
    const { names } = await toolNames([]);
    expect(names).toContain('gflow_list_models');
    expect(names).toContain('gflow_generate_image');
  });

  it('--no-spend removes the spending tools from tools/list', async () => {
    const { names } = await toolNames(['--no-spend']);
    expect(names).toContain('gflow_list_models');
    expect(names).not.toContain('gflow_generate_image');
    expect(names).not.toContain('gflow_generate_video');
  });
});
