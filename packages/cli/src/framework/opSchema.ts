import { OPERATIONS } from '@gflow/core/surfaces';

/**
 * The input schema of a core operation, looked up when help or the command
 * needs it. Command modules import this; they load lazily, so `--help` of other
 * commands never pays for core. An unknown name is a bug (the command tests name it).
 */
export function opSchema(name: string): () => unknown {
  return () => {
    const op = OPERATIONS.find((o) => o.name === name);
    if (!op) throw new Error(`no core operation "${name}"`);
    return op.input;
  };
}
