import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CliChild, type CliOptions, GFLOW_BIN, cliEnv, makeHome, spawnCli } from './gflowProcess.js';
import { type ConnectOptions, type McpConnection, connectHttp, connectMcp } from './mcpClient.js';
import type { CliResult } from './output.js';
import { waitFor } from './waitFor.js';

/** A stdio MCP server to start: any command (a tsx fixture, `gflow mcp run`, …). */
export interface StdioServer {
  readonly command: string;
  readonly args: readonly string[];
  /** The child's whole environment (default: this process's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Starts `server` as a child process and connects a client to its stdio; stderr is collected. */
export async function connectStdio(server: StdioServer, options: ConnectOptions = {}): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    env: { ...(server.env ?? (process.env as Record<string, string>)) },
    ...(server.cwd ? { cwd: server.cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => (stderr += chunk.toString()));
  return connectMcp(transport, { ...options, stderr: () => stderr });
}

/** `gflow mcp run <args>` as a child process (the environment of cliEnv), a client on its stdio. */
export async function gflowStdio(
  args: readonly string[],
  options: CliOptions & ConnectOptions = {},
): Promise<McpConnection> {
  const home = options.home ?? makeHome();
  return connectStdio(
    {
      command: process.execPath,
      args: [GFLOW_BIN, 'mcp', 'run', ...args],
      env: cliEnv(home, options.env),
      cwd: options.cwd ?? home,
    },
    options,
  );
}

/** A running `gflow serve`. */
export interface ServeProcess {
  /** Where it listens (`http://127.0.0.1:<port>/mcp`). */
  readonly url: URL;
  readonly run: CliChild;
  /** Ctrl-C (SIGINT), the documented way to stop it; its process group is killed after 15 s or once it exited. */
  stop(): Promise<CliResult>;
}

/** `gflow serve --port 0 <args>` as a child process; resolves once it says where it listens. */
export async function startServe(
  args: readonly string[],
  options: CliOptions & { readonly startTimeoutMs?: number } = {},
): Promise<ServeProcess> {
  const run = spawnCli(['serve', '--port', '0', ...args], options);
  let exited = false;
  void run.done.then(() => (exited = true));
  const match = await waitFor(
    'gflow serve to listen',
    () => {
      if (exited) throw new Error(`gflow serve exited early:\n${run.stderr()}`);
      return /listening on (http:\/\/\S+?\/mcp)/.exec(run.stderr());
    },
    options.startTimeoutMs ?? 90_000,
    50,
  ).catch((error: unknown) => {
    run.killGroup();
    throw error;
  });
  return {
    url: new URL(match[1] ?? ''),
    run,
    async stop() {
      if (!exited) run.child.kill('SIGINT');
      const timer = setTimeout(() => run.killGroup(), 15_000);
      try {
        return await run.done;
      } finally {
        clearTimeout(timer);
        run.killGroup();
      }
    },
  };
}

/** A client on a `gflow serve` over Streamable HTTP; its stderr is the server's. */
export function gflowHttp(serve: ServeProcess, options: ConnectOptions = {}): Promise<McpConnection> {
  return connectHttp(serve.url, { ...options, stderr: () => serve.run.stderr() });
}
