import { hostHeaderValidation, localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/hono';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType, readRequestBody } from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { PARSE_ERROR_RESPONSE, judgeJsonRpcMessage } from '@gflow/mcp';

const LOCALHOST_BINDS = ['127.0.0.1', 'localhost', '::1'];

/**
 * The body as text, at most DEFAULT_MAX_REQUEST_BODY_SIZE bytes. With a declared Content-Length
 * within the limit (Node's HTTP parser delivers exactly that many bytes) it is read in one go:
 * @hono/node-server then reads the socket directly instead of building a web stream for it.
 * Anything else (no length, chunked, over the limit) goes through the SDK's bounded reader, which
 * refuses an oversized declared length without reading and stops a stream past the limit.
 */
async function readBoundedBody(
  request: Request,
  contentLength: string | undefined,
): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  if (
    contentLength !== undefined &&
    /^\d+$/.test(contentLength) &&
    Number(contentLength) <= DEFAULT_MAX_REQUEST_BODY_SIZE
  ) {
    return { tooLarge: false, text: await request.text() };
  }
  return readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
}

/** The variable the body parser sets (as createMcpHonoApp does). */
export interface McpAppEnv {
  Variables: { parsedBody: unknown };
}

export interface GuardedMcpAppOptions {
  /** The host the Host/Origin guard is built for (as createMcpHonoApp's `host`). */
  readonly host: string;
  readonly allowedHosts?: readonly string[] | undefined;
  /** Told when a wildcard bind gets no Host guard (createMcpHonoApp prints this to the console). */
  readonly warn: (detail: string) => void;
}

/**
 * `createMcpHonoApp` from @modelcontextprotocol/hono, composed the same way
 * (the SDK's own Host and Origin middlewares, chosen by the same rules, in
 * the same order, then a bounded JSON body parser that answers 413 / 400 and
 * stores `parsedBody`), except that the body parser reads the request itself
 * instead of a clone. Cloning tees the body stream on every request, and
 * nothing behind this app reads the body again: every MCP leg (the modern
 * handler, the legacy session transport, isLegacyRequest, the SSE /messages/
 * route) is given `parsedBody`.
 */
export function createGuardedMcpApp(options: GuardedMcpAppOptions): Hono<McpAppEnv> {
  const { host, allowedHosts } = options;
  const localhost = LOCALHOST_BINDS.includes(host);
  const app = new Hono<McpAppEnv>();
  if (allowedHosts) app.use('*', hostHeaderValidation([...allowedHosts]));
  else if (localhost) app.use('*', localhostHostValidation());
  else if (host === '0.0.0.0' || host === '::') {
    options.warn(
      `Binding to ${host} without DNS rebinding protection: pass allowedHosts to restrict the Host header, or rely on the bearer token.`,
    );
  }
  if (localhost) app.use('*', localhostOriginValidation());
  app.use('*', async (c, next) => {
    if (c.get('parsedBody') !== undefined) return await next();
    if (!isJsonContentType(c.req.header('content-type'))) return await next();
    try {
      const body = await readBoundedBody(c.req.raw, c.req.header('content-length'));
      if (body.tooLarge) {
        return c.json(
          {
            jsonrpc: '2.0',
            error: {
              code: -32000,
              message: `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`,
            },
            id: null,
          },
          413,
        );
      }
      c.set('parsedBody', JSON.parse(body.text));
    } catch {
      return c.json(PARSE_ERROR_RESPONSE, 400);
    }
    // A malformed message is answered here with its id when it can be read (JSON-RPC §5);
    // the SDK would answer it with id null, or not at all. A tools/call argument the SDK would
    // drop (`__proto__`) is noted in the message's _meta, in place, for the tool's refusal.
    const verdict = judgeJsonRpcMessage(c.get('parsedBody'));
    if (verdict.kind === 'answer') return c.json(verdict.response, 400);
    if (verdict.kind === 'drop')
      return c.json(
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${verdict.why}` } },
        400,
      );
    return await next();
  });
  return app;
}
