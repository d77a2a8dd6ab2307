import { type ChildProcess, spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SurfaceName } from '../requirements.js';
import { GFLOW_BIN, type SurfaceHome, childEnv } from './environment.js';
import { type CallOutcome, type SurfaceDriver, operationNamed, outcomeOfReply } from './outcome.js';

const START_TIMEOUT_MS = 30_000;

function driverOver(surface: SurfaceName, where: SurfaceHome, client: Client, log: () => string, stop: () => Promise<void>): SurfaceDriver {
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
        return { ok: false, problem: { type: 'about:blank', title: 'MCP protocol error', detail }, protocolError: true };
      }
      const reply = result.structuredContent ?? JSON.parse(((result.content as Array<{ text?: string }>)[0]?.text ?? 'null')) as unknown;
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
  const transport = new StdioClientTransport({ command: process.execPath, args: [GFLOW_BIN, 'mcp', 'run', ...extraArgs], env: childEnv(where), cwd: where.home, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => (log += chunk.toString()));
  const client = new Client({ name: 'gflow-parity', version: '1.0.0' });
  await client.connect(transport);
  return driverOver('mcp-stdio', where, client, () => log, async () => {});
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/** `gflow serve --port 0` as a child process, a v2 client on the URL it prints. */
export async function mcpHttpDriver(where: SurfaceHome, extraArgs: readonly string[] = []): Promise<SurfaceDriver> {
  const child = spawn(process.execPath, [GFLOW_BIN, 'serve', '--port', '0', ...extraArgs], { env: childEnv(where), cwd: where.home, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gflow serve did not start within ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const match = /listening on (http:\/\/\S+?\/mcp)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gflow serve exited (${code}) before listening:\n${log}`));
    });
  });
  const client = new Client({ name: 'gflow-parity', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return driverOver('mcp-http', where, client, () => log, () => stopChild(child));
}
