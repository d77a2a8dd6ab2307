import { BadParameterError, ConfigurationError } from '@gflow/errors';
import type { z } from 'zod';
import { homeLayout, type HomeLayout } from '../home/homeLayout.js';
import type { Operation, OperationContext, ProgressEvent, Surface } from '../operations/operation.js';
import { type LoadSettingsOptions, type ResolvedSettings, loadSettings } from '../settings/loadSettings.js';

export interface CreateGflowOptions extends LoadSettingsOptions {
  readonly surface: Surface;
  /** Settings already loaded (skips loading). */
  readonly settings?: ResolvedSettings;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
}

/**
 * The embeddable library and the runtime every surface shares: settings, the
 * home, and the operations. Services (catalog, leases, browser sessions, jobs)
 * are opened lazily, so a read of the model catalog never opens SQLite or a
 * browser.
 */
export class Gflow {
  readonly settings: ResolvedSettings;
  readonly layout: HomeLayout;
  readonly surface: Surface;
  readonly #operations = new Map<string, Operation>();
  readonly #closers: Array<() => Promise<void> | void> = [];

  constructor(options: CreateGflowOptions, operations: readonly Operation[]) {
    this.settings = options.settings ?? loadSettings(options);
    this.layout = homeLayout(this.settings.home);
    this.surface = options.surface;
    for (const operation of operations) {
      if (this.#operations.has(operation.name)) throw new ConfigurationError(`Operation ${operation.name} is declared twice.`);
      this.#operations.set(operation.name, operation);
    }
  }

  /** The operations this runtime offers (no-spend removes the spending ones). */
  operations(): Operation[] {
    return [...this.#operations.values()].filter((op) => !(this.settings.noSpend && op.kind === 'spend'));
  }

  operation(name: string): Operation | undefined {
    const op = this.#operations.get(name) ?? [...this.#operations.values()].find((o) => o.mcpName === name);
    if (!op || (this.settings.noSpend && op.kind === 'spend')) return undefined;
    return op;
  }

  /** Runs an operation by name with raw input, validated by its schema. */
  async run<O extends Operation>(name: string, input: unknown, options: RunOptions = {}): Promise<z.output<O['output']>> {
    const operation = this.operation(name);
    if (!operation) throw new BadParameterError(`Unknown operation "${name}".`);
    const parsed = operation.input.safeParse(input ?? {});
    if (!parsed.success) throw badParameterFromZod(parsed.error);
    const context: OperationContext = {
      gflow: this,
      surface: this.surface,
      signal: options.signal ?? new AbortController().signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    };
    return (await operation.handler(parsed.data, context)) as z.output<O['output']>;
  }

  /** Registers cleanup for a lazily opened service. */
  onClose(closer: () => Promise<void> | void): void {
    this.#closers.push(closer);
  }

  async close(): Promise<void> {
    const closers = this.#closers.splice(0).reverse();
    for (const closer of closers) await closer();
  }
}

/** A 400 naming the first bad parameter and why, from a zod error. */
export function badParameterFromZod(error: z.ZodError): BadParameterError {
  const issue = error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : 'input';
  return new BadParameterError(`${where}: ${issue?.message ?? 'invalid'}`, {
    extensions: { parameter: where, issues: error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })) },
  });
}
