import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { redactText, toGflowError } from '@gflow/errors';
import type { GflowLogger } from '../gflowPort.js';

/**
 * Runs a catalog resource read: protocol errors (not found, too large) go
 * out as they are; anything else is masked like a tool's unexpected error
 * (no path, no raw text on the wire; the details in the home's error log) and logged.
 */
export async function guardCatalogRead<T>(logger: GflowLogger, uri: string, read: () => Promise<T> | T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    // One masking for every surface: the details go to the home's error log, which it names.
    const masked = toGflowError(error);
    logger.error('mcp.resource.unexpected_error', {
      instance: `gflow:error:${masked.correlationId}`,
      uri: uri.slice(0, 300),
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    throw new ProtocolError(ProtocolErrorCode.InternalError, redactText(masked.detail));
  }
}

/**
 * Runs a catalog listing or completion: a catalog that cannot be read must
 * not break resources/list or completion/complete for the other entries, so
 * a failure is logged and answered with the fallback.
 */
export async function catalogOrFallback<T>(
  logger: GflowLogger,
  what: string,
  fallback: T,
  read: () => Promise<T> | T,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    logger.warn('mcp.resource.catalog_unavailable', {
      what,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return fallback;
  }
}
