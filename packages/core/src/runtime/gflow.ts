import { randomBytes } from 'node:crypto';
import { type Catalog, SCHEMA_SQL, claimantPidIsAlive, formatClaimant, openCatalog } from '@gflow/catalog';
import { BadParameterError, ConfigurationError } from '@gflow/errors';
import { type KeyedQueue, type TokenBucket, createKeyedQueue, createTokenBucket } from '@gflow/lease';
import type { z } from 'zod';
import { usageRecordingEnabled } from '../home/configToml.js';
import { homeLayout, type HomeLayout } from '../home/homeLayout.js';
import type { Operation, OperationContext, ProgressEvent, Surface } from '../operations/operation.js';
import { type LoadSettingsOptions, type ResolvedSettings, loadSettings } from '../settings/loadSettings.js';
import type { BrowserOverrides } from '../jobs/browserLaunch.js';
import { SessionPool } from '../jobs/sessionPool.js';
import { JobRegistry } from './jobRegistry.js';
import { type Logger, createLogger } from './logger.js';
import { createTaskService } from './taskServiceImpl.js';
import type { TaskService } from './taskService.js';

export interface CreateGflowOptions extends LoadSettingsOptions {
  readonly surface: Surface;
  /** Settings already loaded (skips loading). */
  readonly settings?: ResolvedSettings;
  /** Browser launch additions (the sandbox maps Google's hosts to the simulator here). */
  readonly browser?: BrowserOverrides;
  /** Keep browser sessions warm between calls (daemons); default: servers yes, CLI no. */
  readonly keepSessionsWarm?: boolean;
  readonly logger?: Logger;
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
  /** Generation jobs running in this process. */
  readonly jobs = new JobRegistry();
  /** Per-profile FIFO: calls on one profile inside this process run one at a time. */
  readonly profileQueue: KeyedQueue = createKeyedQueue();
  /** The spending brake of the MCP/HTTP surfaces. */
  readonly limiter: TokenBucket;
  readonly tasks: TaskService;
  readonly browserOverrides: BrowserOverrides;
  readonly logger: Logger;
  readonly sessions: SessionPool;
  /** Distinguishes this process's claims from a dead one's with a reused pid. */
  readonly startToken = randomBytes(6).toString('hex');
  readonly #operations = new Map<string, Operation>();
  readonly #closers: Array<() => Promise<void> | void> = [];
  #catalog: Catalog | undefined;
  #usageRecording: boolean | undefined;

  constructor(options: CreateGflowOptions, operations: readonly Operation[]) {
    this.settings = options.settings ?? loadSettings(options);
    this.layout = homeLayout(this.settings.home);
    this.surface = options.surface;
    this.browserOverrides = options.browser ?? {};
    this.logger = options.logger ?? createLogger({ level: this.settings.logLevel, format: this.settings.logFormat });
    this.sessions = new SessionPool(this, options.keepSessionsWarm ?? (this.surface === 'mcp' || this.surface === 'http'));
    this.limiter = createTokenBucket({ capacity: this.settings.rateLimitCapacity, refillMs: this.settings.rateLimitRefillSeconds * 1000 });
    this.tasks = createTaskService(() => this.catalog, this.jobs);
    for (const operation of operations) {
      if (this.#operations.has(operation.name)) throw new ConfigurationError(`Operation ${operation.name} is declared twice.`);
      this.#operations.set(operation.name, operation);
    }
  }

  /** The operations this runtime offers on a surface (no-spend removes the spending ones). */
  operations(surface: Surface = this.surface): Operation[] {
    return [...this.#operations.values()].filter((op) => !(this.settings.noSpend && op.kind === 'spend') && (!op.surfaces || op.surfaces.includes(surface)));
  }

  operation(name: string): Operation | undefined {
    const op = this.#operations.get(name) ?? [...this.#operations.values()].find((o) => o.mcpName === name);
    if (!op || (this.settings.noSpend && op.kind === 'spend')) return undefined;
    return op;
  }

  /** Runs an operation by name with raw input, validated by its schema. */
  async run<O extends Operation>(name: string, input: unknown, options: RunOptions = {}): Promise<z.output<O['output']>> {
    const operation = this.operation(name);
    if (!operation) {
      const hidden = this.#operations.get(name) ?? [...this.#operations.values()].find((o) => o.mcpName === name);
      if (hidden?.kind === 'spend' && this.settings.noSpend) {
        throw new ConfigurationError(`${hidden.name} spends credits and no-spend mode is on (GFLOW_MCP_NO_SPEND / --no-spend).`, {
          remediationHint: 'Unset GFLOW_MCP_NO_SPEND (or drop --no-spend) to generate.',
        });
      }
      throw new BadParameterError(`Unknown operation "${name}".`);
    }
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

  /**
   * The catalog, opened (and migrated) on first use. Opening settles the task
   * rows a dead process left `working`: `indeterminate` when it may have
   * spent credits, else `failed`.
   */
  get catalog(): Catalog {
    if (!this.#catalog) {
      const catalog = openCatalog({ path: this.settings.dbPath, historyPrompts: this.settings.historyPrompts });
      catalog.tasks.settleAbandoned({ isAlive: (claimant) => claimant.endsWith(`:${process.pid}:${this.startToken}`) || (!claimant.includes(`:${process.pid}:`) && claimantPidIsAlive(claimant)) });
      this.#catalog = catalog;
    }
    return this.#catalog;
  }

  /** The claimant string this process writes on the task rows it runs. */
  claimantFor(profile: string): string {
    return formatClaimant({ surface: this.surface, profile, pid: process.pid, startToken: this.startToken });
  }

  /** Records one invocation for gflow_usage_stats (unless `gflow telemetry off`); never fails the call. */
  recordUsage(command: string, profile?: string, outcome: 'ok' | 'error' = 'ok'): void {
    try {
      this.#usageRecording ??= usageRecordingEnabled(this.layout.configToml);
      if (!this.#usageRecording) return;
      this.catalog.usage.record({ surface: this.surface, command, profile: profile ?? null, outcome });
    } catch {
      // Usage statistics are best effort: a read-only or broken catalog must not fail the command.
    }
  }

  /** The SQL text of the catalog schema (gflow://db/schema). */
  schemaSql(): string {
    return SCHEMA_SQL;
  }

  /** Registers cleanup for a lazily opened service. */
  onClose(closer: () => Promise<void> | void): void {
    this.#closers.push(closer);
  }

  /** Cancels running jobs (settled as the worker sees fit), closes services and the catalog. */
  async close(): Promise<void> {
    await this.jobs.cancelAll();
    const closers = this.#closers.splice(0).reverse();
    for (const closer of closers) await closer();
    this.#catalog?.close();
    this.#catalog = undefined;
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
