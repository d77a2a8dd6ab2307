// A client that speaks the MCP Tasks extension (SEP-2663) the way a host that implements it does:
// the extension's own requester (@modelcontextprotocol/ext-tasks) over an SDK v2 client on the
// 2026-07-28 wire. The SDK client cannot carry a task result itself, so the requester sends those
// requests raw (rawDispatch), as the package documents for a 2026-07-28 Tasks server.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type JsonRpcResponse,
  type TaskEnabledSession,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { TASKS_CAPABILITIES } from './mcpClient.js';
import { modernRequest } from './modernRequest.js';

/** Unwraps a settled task's outcome: its result, or a throw for a failed or cancelled task (the requester's own helper). */
export { resultFromTaskOutcome };

/** A connected requester: the extension's session, and how to close it and its client. */
export interface TaskRequester {
  readonly session: TaskEnabledSession;
  readonly client: Client;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'gflow-test-tasks', version: '1.0.0' } as const;

/** Connects a requester declaring the Tasks extension to an MCP endpoint over HTTP (`url`, optionally a bearer `token`). */
export async function connectTaskRequester(
  url: string | URL,
  options: { readonly token?: string } = {},
): Promise<TaskRequester> {
  const client = new Client(CLIENT_INFO, {
    capabilities: TASKS_CAPABILITIES,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    }),
  );
  const rawDispatch = async (request: unknown): Promise<JsonRpcResponse> => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const { _meta: _framing, ...rest } = params ?? {};
    const answer = await modernRequest(url, method, rest, {
      capabilities: TASKS_CAPABILITIES,
      ...(options.token ? { token: options.token } : {}),
    });
    return answer.error
      ? { kind: 'error', error: answer.error as never }
      : { kind: 'result', result: (answer.result ?? {}) as never };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: String(url),
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: '2026-07-28',
      clientInfo: CLIENT_INFO,
      clientCapabilities: TASKS_CAPABILITIES as never,
    },
  });
  return {
    session,
    client,
    async close() {
      await session.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
