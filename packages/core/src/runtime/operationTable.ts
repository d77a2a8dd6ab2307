import { ConfigurationError } from '@gflow/errors';
import type { Operation } from '../operations/operation.js';
import type { OperationEntry } from '../operations/registry.js';

/** An operation given as its definition: an entry that is loaded already. */
function loadedEntry(operation: Operation): OperationEntry {
  return {
    name: operation.name,
    mcpName: operation.mcpName,
    load: async () => operation,
    loaded: () => operation,
  };
}

const isEntry = (source: Operation | OperationEntry): source is OperationEntry => 'load' in source;

/**
 * The operations a runtime offers, by either name: definitions given as they are, or registry
 * entries whose modules load on first use. The synchronous reads answer from what is loaded and
 * refuse (a bug in the caller, not the user's error) to answer for what is not: a partial list
 * would silently drop tools.
 */
export class OperationTable {
  readonly #entries: readonly OperationEntry[];
  readonly #byName = new Map<string, OperationEntry>();

  constructor(sources: readonly (Operation | OperationEntry)[]) {
    this.#entries = sources.map((source) => (isEntry(source) ? source : loadedEntry(source)));
    for (const entry of this.#entries) {
      if (this.#byName.has(entry.name)) throw new ConfigurationError(`Operation ${entry.name} is declared twice.`);
      this.#byName.set(entry.name, entry);
    }
    for (const entry of this.#entries) if (!this.#byName.has(entry.mcpName)) this.#byName.set(entry.mcpName, entry);
  }

  /** Whether an operation of this name (either form) exists, loaded or not. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The definition of the operation of this name, loading its module first when needed. */
  async load(name: string): Promise<Operation | undefined> {
    return this.#byName.get(name)?.load();
  }

  /** Loads every operation's module (every schema is built). */
  async loadAll(): Promise<void> {
    await Promise.all(this.#entries.map((entry) => entry.load()));
  }

  /** The loaded definition of the operation of this name; undefined when there is none. */
  get(name: string): Operation | undefined {
    const entry = this.#byName.get(name);
    return entry ? (entry.loaded() ?? notLoaded(entry.name)) : undefined;
  }

  /** Every definition, in order; all must be loaded. */
  all(): Operation[] {
    return this.#entries.map((entry) => entry.loaded() ?? notLoaded(entry.name));
  }
}

function notLoaded(name: string): never {
  throw new Error(
    `The operation ${name} is not loaded yet: await gflow.loadOperations() first (importing @gflow/core loads every operation).`,
  );
}
