// MCP clients of the real servers: `gflow mcp run` over stdio and `gflow serve`
// over Streamable HTTP, both with the SDK v2 client negotiating its era.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, type GflowChild, spawnGflow, waitFor } from './harness.js';

export interface ToolReply {
  readonly isError: boolean;
  readonly structured: Record<string, unknown>;
  readonly content: ReadonlyArray<Record<string, unknown>>;
}

export interface McpConnection {
  readonly client: Client;
  /** What the server wrote to stderr so far (for failure messages). */
  stderr(): string;
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<ToolReply>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

function newClient(): Client {
  return new Client({ name: 'gflow-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
}

function wrap(client: Client, stderr: () => string, close: () => Promise<void>): McpConnection {
  return {
    client,
    stderr,
    async call(name, args, timeoutMs = 150_000) {
      const result = (await client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content?: Array<Record<string, unknown>>;
      };
      return { isError: result.isError === true, structured: result.structuredContent ?? {}, content: result.content ?? [] };
    },
    async toolNames() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    close,
  };
}

/** `gflow mcp run …` as a child process over stdio. */
export async function connectStdio(args: readonly string[], env: Record<string, string>): Promise<McpConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'run', ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient();
  await client.connect(transport);
  return wrap(
    client,
    () => stderr,
    async () => {
      await client.close();
    },
  );
}

export interface ServeProcess {
  readonly url: URL;
  readonly run: GflowChild;
  stop(): Promise<void>;
}

/** `gflow serve … --port 0` as a child process; resolves once it says where it listens. */
export async function startServe(args: readonly string[], env: Record<string, string>): Promise<ServeProcess> {
  const run = spawnGflow(['serve', '--port', '0', ...args], env);
  let exited = false;
  void run.done.then(() => (exited = true));
  const match = await waitFor(
    'gflow serve to listen',
    () => {
      if (exited) throw new Error(`gflow serve exited early:\n${run.stderr()}`);
      return /listening on (http:\/\/\S+?\/mcp)/.exec(run.stderr());
    },
    90_000,
  );
  return {
    url: new URL(match[1] ?? ''),
    run,
    async stop() {
      // Ctrl-C, the documented way to stop it (SIGTERM has its own test: serverShutdown.test.ts).
      if (!exited) run.child.kill('SIGINT');
      const timer = setTimeout(() => run.killGroup(), 15_000);
      await run.done;
      clearTimeout(timer);
      run.killGroup();
    },
  };
}

/** A v2 client over Streamable HTTP. */
export async function connectHttp(serve: ServeProcess): Promise<McpConnection> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(serve.url));
  return wrap(
    client,
    () => serve.run.stderr(),
    async () => {
      await client.close();
    },
  );
}

/** What `tasks/get` answers (the Tasks extension). */
export interface TaskReply {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly ttlMs: null;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An explicit result schema (Standard Schema v1, hand-written: this package has no zod). */
export const taskReplySchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'gflow-e2e',
    types: undefined as unknown as { readonly input: unknown; readonly output: TaskReply },
    validate(value: unknown): { value: TaskReply } | { issues: Array<{ message: string }> } {
      const issues: Array<{ message: string }> = [];
      if (!isRecord(value)) return { issues: [{ message: 'not an object' }] };
      if (typeof value['taskId'] !== 'string') issues.push({ message: 'taskId is not a string' });
      if (typeof value['status'] !== 'string') issues.push({ message: 'status is not a string' });
      if (value['ttlMs'] !== null) issues.push({ message: 'ttlMs is not null' });
      if (typeof value['createdAt'] !== 'string') issues.push({ message: 'createdAt is not a string' });
      if (typeof value['lastUpdatedAt'] !== 'string') issues.push({ message: 'lastUpdatedAt is not a string' });
      if ('statusMessage' in value && value['statusMessage'] !== undefined && typeof value['statusMessage'] !== 'string') issues.push({ message: 'statusMessage is not a string' });
      if ('result' in value && value['result'] !== undefined && !isRecord(value['result'])) issues.push({ message: 'result is not an object' });
      return issues.length ? { issues } : { value: value as unknown as TaskReply };
    },
  },
};

/** An empty acknowledgement (tasks/cancel). */
export const ackSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'gflow-e2e',
    types: undefined as unknown as { readonly input: unknown; readonly output: Record<string, unknown> },
    validate(value: unknown): { value: Record<string, unknown> } | { issues: Array<{ message: string }> } {
      return isRecord(value) ? { value } : { issues: [{ message: 'not an object' }] };
    },
  },
};

export function getTask(conn: McpConnection, taskId: string): Promise<TaskReply> {
  return conn.client.request({ method: 'tasks/get', params: { taskId } }, taskReplySchema);
}

export function cancelTask(conn: McpConnection, taskId: string): Promise<Record<string, unknown>> {
  return conn.client.request({ method: 'tasks/cancel', params: { taskId } }, ackSchema);
}
