import { PassThrough, type Readable } from 'node:stream';
import { refusedTaskListen } from '../tasks/taskListen.js';
import { noteStrippedArgumentKeys } from './strippedArgumentKeys.js';

/** A JSON-RPC 2.0 error response (§5.1). */
export interface JsonRpcErrorResponse {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export type LineVerdict =
  /** A well-formed message: hand it to the MCP transport (`rewritten`: in this form, see strippedArgumentKeys.ts). */
  | { readonly kind: 'pass'; readonly rewritten?: object }
  /** Malformed: answer it (it carried an id, or it was not JSON at all). */
  | { readonly kind: 'answer'; readonly response: JsonRpcErrorResponse }
  /** Malformed without an id (a notification or a response): nothing to answer, only to log. */
  | { readonly kind: 'drop'; readonly why: string };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function invalid(id: unknown, why: string): LineVerdict {
  return {
    kind: 'answer',
    response: {
      jsonrpc: '2.0',
      id: isId(id) ? id : null,
      error: { code: INVALID_REQUEST, message: `Invalid Request: ${why}` },
    },
  };
}

/**
 * Judges one line of the stdio stream against JSON-RPC 2.0 (§4, §5) and MCP (params is an object;
 * batches are not part of MCP). The SDK's stdio transport reports a malformed message as an error
 * and drops it, so a client that sent one with an id would wait forever; here every such message
 * is answered: unparseable JSON with -32700 and id null, an invalid request with -32600 and its id
 * when the id can be read (null otherwise). Well-formed messages pass untouched — unknown methods
 * are the server's to answer (-32601) — but for a request for task notifications without the Tasks
 * extension, which SEP-2663 refuses (-32021) and the SDK would not (taskListen.ts).
 */
export function judgeJsonRpcLine(line: string): LineVerdict {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: 'answer', response: PARSE_ERROR_RESPONSE };
  }
  return judgeJsonRpcMessage(message);
}

/** The answer to a message that is not JSON at all (JSON-RPC §5.1: id null). */
export const PARSE_ERROR_RESPONSE: JsonRpcErrorResponse = {
  jsonrpc: '2.0',
  id: null,
  error: { code: PARSE_ERROR, message: 'Parse error: the message is not JSON' },
};

/**
 * judgeJsonRpcLine for a message already parsed (the HTTP body). A tools/call whose arguments hold
 * a key the SDK would drop gets it noted in its `_meta`, in place (strippedArgumentKeys.ts).
 */
export function judgeJsonRpcMessage(message: unknown): LineVerdict {
  if (Array.isArray(message))
    return invalid(null, message.length === 0 ? 'an empty batch' : 'batches are not supported by MCP');
  if (!isObject(message)) return invalid(null, 'a message must be a JSON object');
  const hasId = Object.hasOwn(message, 'id');
  const id = message['id'];
  const label = hasId ? (isId(id) ? undefined : 'id must be a string or a number') : undefined;
  if (message['jsonrpc'] !== '2.0')
    return hasId ? invalid(id, 'jsonrpc must be "2.0"') : { kind: 'drop', why: 'jsonrpc is not "2.0"' };
  if (Object.hasOwn(message, 'method')) {
    if (typeof message['method'] !== 'string' || message['method'] === '') {
      return hasId
        ? invalid(id, 'method must be a non-empty string')
        : { kind: 'drop', why: 'a notification whose method is not a string' };
    }
    if (Object.hasOwn(message, 'params') && !isObject(message['params'])) {
      return hasId
        ? invalid(id, 'params must be an object')
        : { kind: 'drop', why: 'a notification whose params is not an object' };
    }
    if (label !== undefined) return invalid(id, label);
    if (hasId && id === null) return invalid(null, 'a request id must not be null');
    const refused = refusedTaskListen(message);
    if (refused) return { kind: 'answer', response: refused };
    return noteStrippedArgumentKeys(message) ? { kind: 'pass', rewritten: message } : { kind: 'pass' };
  }
  // No method: a response to one of the server's requests.
  const isResult = Object.hasOwn(message, 'result');
  const isError = Object.hasOwn(message, 'error');
  if (
    hasId &&
    isResult !== isError &&
    (isResult ||
      (isObject(message['error']) &&
        Number.isInteger(message['error']['code']) &&
        typeof message['error']['message'] === 'string'))
  ) {
    return { kind: 'pass' };
  }
  return hasId && isId(id)
    ? invalid(id, 'neither a request (method) nor a response (result or error)')
    : { kind: 'drop', why: 'neither a request nor a response' };
}

/**
 * Filters a newline-delimited JSON-RPC stream: well-formed lines go on to the returned stream (for
 * the SDK's stdio transport) unless `divert` takes them, malformed ones are answered through
 * `answer` (or logged through `drop` when they carry no id). The input's end ends the output.
 */
export function filterJsonRpcInput(
  input: Readable,
  answer: (response: JsonRpcErrorResponse) => void,
  drop: (why: string) => void,
  divert: (message: unknown) => boolean = () => false,
): Readable {
  const out = new PassThrough();
  let buffered = '';
  const take = (line: string): void => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const verdict = judgeJsonRpcLine(text);
    // A well-formed message the server answers itself (`divert` says so) never reaches the SDK.
    if (verdict.kind === 'pass' && divert(JSON.parse(text))) return;
    if (verdict.kind === 'pass') out.write(`${verdict.rewritten ? JSON.stringify(verdict.rewritten) : text}\n`);
    else if (verdict.kind === 'answer') answer(verdict.response);
    else drop(verdict.why);
  };
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      take(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  });
  input.on('end', () => {
    if (buffered !== '') take(buffered);
    buffered = '';
    out.end();
  });
  input.on('error', (error) => out.destroy(error));
  return out;
}
