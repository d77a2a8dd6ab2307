import { gflowStdio } from '@gflow/testkit/cli';
import { describe, expect, it } from 'vitest';

async function toolNames(args: readonly string[]): Promise<{ names: string[]; server?: string }> {
  const conn = await gflowStdio(args, { name: 'gflow-cli-test' });
  const { client } = conn;
  try {
    const { tools } = await client.listTools();
    const server = client.getServerVersion()?.name;
    return { names: tools.map((t) => t.name), ...(server ? { server } : {}) };
  } finally {
    await conn.close();
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
