import { operationEntry } from '@gflow/core/surfaces';

/**
 * The input schema of a core operation, read when help or the command needs it. Reaching a
 * command loads the operation it names (`loadChild`), and only that one: `gflow models` builds
 * one schema, not every operation's. An unknown name, or a schema read before its command was
 * reached, is a bug (the command tests name it).
 */
export function opSchema(name: string): () => unknown {
  return () => {
    const entry = operationEntry(name);
    if (!entry) throw new Error(`no core operation "${name}"`);
    const op = entry.loaded();
    if (!op) throw new Error(`core operation "${name}" read before its command was loaded (loadChild loads it)`);
    return op.input;
  };
}
