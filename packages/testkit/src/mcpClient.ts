import {
  Client,
  type ClientCapabilities,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';

/** The two protocol eras a v2 client speaks: legacy (the default) and 2026-07-28 (versionNegotiation auto). */
export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** The Tasks extension (SEP-2663) as a client declares it in its capabilities. */
export const TASKS_CAPABILITIES: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** The one way the tests build an MCP client (SDK v2); `capabilities` are what it declares (e.g. TASKS_CAPABILITIES). */
export function mcpClient(era: Era = 'legacy', name = 'gflow-test', capabilities?: ClientCapabilities): Client {
  return new Client(
    { name, version: '1.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}),
      ...(capabilities ? { capabilities } : {}),
    },
  );
}

/** What a tool call answered, flattened. */
export interface ToolReply {
  readonly isError: boolean;
  readonly structured: Record<string, unknown>;
  readonly content: ReadonlyArray<Record<string, unknown>>;
}

/** A connected client and what its server said on stderr. */
export interface McpConnection {
  readonly client: Client;
  /** What the server wrote to stderr so far (for failure messages); '' when it has none. */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ToolReply>;
  toolNames(): Promise<string[]>;
  /** Closes the client, then whatever the connection started (a child process, a server). */
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly era?: Era;
  /** The client's name in the handshake. */
  readonly name?: string;
  /** What the client declares (default: nothing beyond the SDK's own). */
  readonly capabilities?: ClientCapabilities;
}

/** Connects a client over `transport`; `stderr` and `stop` come from whoever made the transport. */
export async function connectMcp(
  transport: Transport,
  options: ConnectOptions & { readonly stderr?: () => string; readonly stop?: () => Promise<void> } = {},
): Promise<McpConnection> {
  const client = mcpClient(options.era, options.name, options.capabilities);
  await client.connect(transport);
  return {
    client,
    stderr: options.stderr ?? (() => ''),
    async call(name, args = {}, timeoutMs = 150_000) {
      const result = (await client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content?: Array<Record<string, unknown>>;
      };
      return {
        isError: result.isError === true,
        structured: result.structuredContent ?? {},
        content: result.content ?? [],
      };
    },
    async toolNames() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    async close() {
      await client.close().catch(() => undefined);
      await options.stop?.();
    },
  };
}

export interface HttpConnectOptions extends ConnectOptions {
  /** Sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /** Answers the requests in process (a handler's or an app's fetch) instead of the network. */
  readonly fetch?: (request: Request) => Promise<Response>;
  readonly stderr?: () => string;
  readonly stop?: () => Promise<void>;
}

/** A client over Streamable HTTP: a real URL, or in process through `fetch`. */
export async function connectHttp(url: string | URL, options: HttpConnectOptions = {}): Promise<McpConnection> {
  const answer = options.fetch;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    ...(answer ? { fetch: (u: string | URL, init?: RequestInit) => answer(new Request(u, init)) } : {}),
  });
  return connectMcp(transport, options);
}
