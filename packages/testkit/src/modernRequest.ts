import type { ClientCapabilities } from '@modelcontextprotocol/client';

/** A JSON-RPC answer as it came back: a result or an error. */
export interface JsonRpcAnswer {
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export interface ModernRequestOptions {
  /** The client capabilities the request's `_meta` envelope declares (default: none). */
  readonly capabilities?: ClientCapabilities;
  /** Sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /** Answers in process (a handler's or an app's fetch) instead of the network. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

let nextId = 1;

/** What `Mcp-Name` mirrors for a method (SEP-2243, SEP-2663): the tool or prompt name, the URI, the task id. */
function nameOf(method: string, params: Readonly<Record<string, unknown>>): string | undefined {
  const key =
    method === 'resources/read'
      ? 'uri'
      : method.startsWith('tasks/')
        ? 'taskId'
        : method === 'tools/call' || method === 'prompts/get'
          ? 'name'
          : undefined;
  const value = key ? params[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The JSON-RPC answer in a body that is plain JSON or an SSE stream (the last message with our id). */
function answerIn(text: string, contentType: string, id: number): JsonRpcAnswer {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text) as JsonRpcAnswer;
  const messages = text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5).trim()) as { id?: unknown } & JsonRpcAnswer);
  const answer = messages.find((m) => m.id === id);
  if (!answer) throw new Error(`no answer to request ${id} in the event stream:\n${text.slice(0, 2000)}`);
  return answer;
}

/**
 * One 2026-07-28 request sent by hand (the envelope and the three headers), for what the SDK
 * client will not send or read — a tools/call that answers a CreateTaskResult (resultType "task"),
 * tasks/get and its siblings — the way a client that speaks the Tasks extension sends it.
 */
export async function modernRequest(
  url: string | URL,
  method: string,
  params: Readonly<Record<string, unknown>> = {},
  options: ModernRequestOptions = {},
): Promise<JsonRpcAnswer> {
  const id = nextId++;
  const name = nameOf(method, params);
  const request = new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'gflow-test-raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
        },
      },
    }),
  });
  const response = await (options.fetch ?? fetch)(request);
  return answerIn(await response.text(), response.headers.get('content-type') ?? '', id);
}

/** The result of a modern request, or a throw naming its JSON-RPC error (with `code` and `data` on the error). */
export async function modernResult(
  url: string | URL,
  method: string,
  params: Readonly<Record<string, unknown>> = {},
  options: ModernRequestOptions = {},
): Promise<Record<string, unknown>> {
  const answer = await modernRequest(url, method, params, options);
  if (answer.result) return answer.result;
  throw Object.assign(new Error(`${method}: ${answer.error?.message ?? 'no result'}`), {
    code: answer.error?.code,
    data: answer.error?.data,
  });
}
