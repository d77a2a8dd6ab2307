import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { OperationKind } from '../gflowPort.js';

/**
 * MCP tool annotations derived from an operation's kind.
 * Mirrors core's `annotationsFor(kind, usesBrowser)`; replace with the core
 * import once @gflow/core exports it (the single source of truth).
 */
export function toolAnnotations(kind: OperationKind, usesBrowser: boolean): ToolAnnotations {
  return {
    readOnlyHint: kind === 'read',
    destructiveHint: kind === 'mutate',
    idempotentHint: kind === 'read',
    openWorldHint: usesBrowser || kind === 'spend',
  };
}
