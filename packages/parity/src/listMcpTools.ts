import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createGflow } from '@gflow/core';
import { createGflowMcpServer } from '@gflow/mcp';
import { type McpConnection, connectHttp } from '@gflow/testkit/mcp';
import type { ListedTool } from './checkStructure.js';

/**
 * The tools a real MCP client sees from `createGflowMcpServer`, in process
 * (createMcpHandler + a fetch transport, as @gflow/mcp's own tests connect).
 * No-spend is off, so the spending tools are listed too. A throwaway home
 * keeps the developer's settings out.
 */
export async function listMcpTools(): Promise<ListedTool[]> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-parity-tools-'));
  const gflow = createGflow({
    surface: 'mcp',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'), GFLOW_CLI_LOG_LEVEL: 'ERROR' },
    cwd: home,
  });
  if (gflow.settings.noSpend) throw new Error('no-spend is on; the structural check needs every tool registered');
  const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era }));
  let conn: McpConnection | undefined;
  try {
    conn = await connectHttp('http://parity.local/mcp', {
      name: 'gflow-parity',
      fetch: (request) => handler.fetch(request),
    });
    const { tools } = await conn.client.listTools();
    return tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema as ListedTool['inputSchema'] }));
  } finally {
    await conn?.close();
    await handler.close();
    await gflow.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
