import { CancelledError, type FailureEnvelope, isGflowError, toFailureEnvelope } from '@gflow/errors';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { GflowLogger } from '../gflowPort.js';
import { withMcpWording } from './mcpWording.js';

/** The structured content of a failed tool call: the one failure envelope, worded for MCP. */
export type ErrorEnvelope = FailureEnvelope;

/**
 * The one error funnel's output: any thrown value becomes an `isError` result
 * whose structured content is `{status, error}` with RFC 9457 problem details,
 * `message` and `retryable`. Errors gflow did not raise are masked ("Unexpected
 * <Class>; details were logged to logs/errors.log in the gflow home.": the runtime's error log
 * holds their text and stack, under the envelope's instance) and logged to the server log too.
 */
export function errorToolResult(
  thrown: unknown,
  tool: string,
  logger: GflowLogger,
  signal?: AbortSignal,
): CallToolResult {
  // A call the client cancelled (or whose connection closed) is a cancellation, whatever the handler threw.
  const error =
    signal?.aborted && !isGflowError(thrown)
      ? new CancelledError('The call was cancelled by the client.', { cause: thrown })
      : thrown;
  const failure = toFailureEnvelope(error);
  const body = withMcpWording(failure.error);
  if (!isGflowError(error)) {
    logger.error('mcp.tool.unexpected_error', {
      tool,
      instance: body.instance,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  } else {
    logger.info('mcp.tool.error', { tool, type: body.type, status: body.status, retryable: body.retryable });
  }
  const envelope: ErrorEnvelope = { status: failure.status, error: body };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
  };
}
