import { OPERATIONS } from '@gflow/core';

/**
 * The input schema of a core operation, looked up when help or the command
 * needs it (undefined while the operation is not in core yet). Command modules
 * import this; they load lazily, so `--help` of other commands never pays for core.
 */
export function opSchema(name: string): () => unknown {
  return () => OPERATIONS.find((o) => o.name === name)?.input;
}
