import type { Client } from '@modelcontextprotocol/client';
import { gflowHttp, gflowStdio, startServe } from '@gflow/testkit/cli';
import type { SurfaceName } from '../requirements.js';
import { type SurfaceHome, childOptions } from './environment.js';
import { type CallOutcome, type SurfaceDriver, operationNamed, outcomeOfReply } from './outcome.js';

const START_TIMEOUT_MS = 30_000;

function driverOver(
  surface: SurfaceName,
  where: SurfaceHome,
  client: Client,
  log: () => string,
  stop: () => Promise<void>,
): SurfaceDriver {
  return {
    surface,
    home: where.home,
    outputDir: where.outputDir,
    costly: false,
    async call(operation, args = {}): Promise<CallOutcome> {
      const name = operationNamed(operation).mcpName;
      let result: Awaited<ReturnType<Client['callTool']>>;
      try {
        result = await client.callTool({ name, arguments: { ...args } });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          problem: { type: 'about:blank', title: 'MCP protocol error', detail },
          protocolError: true,
        };
      }
      const reply =
        result.structuredContent ??
        (JSON.parse((result.content as Array<{ text?: string }>)[0]?.text ?? 'null') as unknown);
      return outcomeOfReply(reply, result.isError === true);
    },
    async listTools() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    serverLog: log,
    async close() {
      await client.close().catch(() => undefined);
      await stop();
    },
  };
}

/** `gflow mcp run` as a child process, a v2 client on its stdio. */
export async function mcpStdioDriver(where: SurfaceHome, extraArgs: readonly string[] = []): Promise<SurfaceDriver> {
  const conn = await gflowStdio(extraArgs, { ...childOptions(where), name: 'gflow-parity' });
  return driverOver('mcp-stdio', where, conn.client, conn.stderr, async () => {});
}

/** `gflow serve --port 0` as a child process, a v2 client on the URL it prints. */
export async function mcpHttpDriver(where: SurfaceHome, extraArgs: readonly string[] = []): Promise<SurfaceDriver> {
  const serve = await startServe(extraArgs, { ...childOptions(where), startTimeoutMs: START_TIMEOUT_MS });
  const stop = async (): Promise<void> => void (await serve.stop());
  try {
    const conn = await gflowHttp(serve, { name: 'gflow-parity' });
    return driverOver('mcp-http', where, conn.client, conn.stderr, stop);
  } catch (error) {
    await stop();
    throw error;
  }
}
