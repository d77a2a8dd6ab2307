import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type * as CatalogModuleNamespace from '@gflow/catalog';
import type { Catalog, JournaledUsage } from '@gflow/catalog';
import { claimantPidIsAlive, formatClaimant } from '@gflow/catalog/claimant';
import { BadParameterError, ConfigurationError } from '@gflow/errors';
import { type KeyedQueue, type TokenBucket, createKeyedQueue, createTokenBucket } from '@gflow/lease/limits';
import type { z } from 'zod';
import { usageRecordingEnabled } from '../home/configToml.js';
import { homeLayout, type HomeLayout } from '../home/homeLayout.js';
import type { Operation, OperationContext, ProgressEvent, Surface } from '../operations/operation.js';
import { type LoadSettingsOptions, type ResolvedSettings, type SettingSource, loadSettings } from '../settings/loadSettings.js';
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

type CatalogModule = typeof CatalogModuleNamespace;
let catalogModule: CatalogModule | undefined;

/**
 * Loads the catalog's code (drizzle, better-sqlite3, migrations) once per
 * process. Deferred so that static reads (`gflow models`, `--help`) never pay
 * for SQLite.
 */
async function loadCatalogModule(): Promise<CatalogModule> {
  catalogModule ??= await import('@gflow/catalog');
  return catalogModule;
}

const SOURCE_WORDS: Readonly<Record<SettingSource, string>> = {
  flag: 'the flags',
  env: 'the environment',
  'cwd-dotenv': './.env',
  'home-dotenv': "the home's .env",
  default: 'the defaults',
};

/** How long a server keeps usage lines in memory before writing them in one transaction. */
const USAGE_FLUSH_MS = 1000;

/** Usage lines written while the catalog is closed stop being appended past this size. */
const USAGE_JOURNAL_MAX_BYTES = 4 * 1024 * 1024;

interface UsageJournalLine {
  readonly surface: string;
  readonly command: string;
  readonly profile: string | null;
  readonly outcome: 'ok' | 'error';
  readonly at: string;
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
  /** The operation whose handler runs in the current async context (jobs it starts included). */
  readonly #running = new AsyncLocalStorage<Operation>();
  readonly #closers: Array<() => Promise<void> | void> = [];
  #catalog: Catalog | undefined;
  #usageRecording: boolean | undefined;
  readonly #pendingUsage: JournaledUsage[] = [];
  #usageFlush: NodeJS.Timeout | undefined;

  constructor(options: CreateGflowOptions, operations: readonly Operation[]) {
    this.settings = options.settings ?? loadSettings(options);
    this.layout = homeLayout(this.settings.home);
    this.surface = options.surface;
    this.browserOverrides = options.browser ?? {};
    if (this.settings.sandbox && this.browserOverrides.sandbox !== true) {
      // Fail safe: a user who set the sandbox switch must never reach the real Flow by accident.
      throw new ConfigurationError(
        `The sandbox is asked for (GFLOW_CLI_SANDBOX=true in ${SOURCE_WORDS[this.settings.sources.sandbox ?? 'flag']}), but this runtime was not opened by the sandbox and would talk to the real flow.google.com; nothing was started.`,
        { remediationHint: 'Run the gflow binary with --sandbox (it honours GFLOW_CLI_SANDBOX=true), or unset GFLOW_CLI_SANDBOX to use the real Flow.' },
      );
    }
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
    if (operation.usesCatalog !== false) await this.ready();
    const context: OperationContext = {
      gflow: this,
      surface: this.surface,
      signal: options.signal ?? new AbortController().signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    };
    return (await this.#running.run(operation, () => operation.handler(parsed.data, context))) as z.output<O['output']>;
  }

  /**
   * The operation being run in the current async context, if any: what a held
   * profile lease says this process is doing ("Generate images
   * (gflow_generate_image)") in other processes' messages.
   */
  get currentOperation(): Operation | undefined {
    return this.#running.getStore();
  }

  /**
   * Loads the catalog's code so that {@link catalog} can open the database.
   * `run()` does this itself for every operation that may use the catalog;
   * code that reads `gflow.catalog` directly awaits it first. Idempotent.
   */
  async ready(): Promise<this> {
    await loadCatalogModule();
    return this;
  }

  /**
   * The catalog, opened (and migrated) on first use, after {@link ready}.
   * Opening settles the task rows a dead process left `working`
   * (`indeterminate` when it may have spent credits, else `failed`) and
   * takes in the usage lines journaled while it was closed.
   */
  get catalog(): Catalog {
    if (!this.#catalog) {
      if (!catalogModule) throw new Error('gflow.catalog was read before `await gflow.ready()` loaded the catalog code.');
      const catalog = catalogModule.openCatalog({ path: this.settings.dbPath, historyPrompts: this.settings.historyPrompts });
      catalog.tasks.settleAbandoned({ isAlive: (claimant) => claimant.endsWith(`:${process.pid}:${this.startToken}`) || (!claimant.includes(`:${process.pid}:`) && claimantPidIsAlive(claimant)) });
      this.#catalog = catalog;
      this.#ingestUsageJournal(catalog);
    }
    return this.#catalog;
  }

  /** The claimant string this process writes on the task rows it runs. */
  claimantFor(profile: string): string {
    return formatClaimant({ surface: this.surface, profile, pid: process.pid, startToken: this.startToken });
  }

  /**
   * Records one invocation for gflow_usage_stats (unless `gflow telemetry
   * off`); never fails the call. Servers and library runtimes batch their
   * lines in memory for up to a second ({@link flushUsage}). A CLI run
   * records straight into an open catalog; when its catalog is closed (a
   * static read such as `gflow models`), or before the catalog's code is
   * loaded, the line goes to a small journal in the home instead, which the
   * next opening of the catalog takes in.
   */
  recordUsage(command: string, profile?: string, outcome: 'ok' | 'error' = 'ok'): void {
    try {
      this.#usageRecording ??= usageRecordingEnabled(this.layout.configToml);
      if (!this.#usageRecording) return;
      if (this.surface !== 'cli' && catalogModule) {
        // Servers answer many small calls: their lines are written in batches.
        this.#pendingUsage.push({ surface: this.surface, command, profile: profile ?? null, outcome, occurredAt: new Date().toISOString() });
        this.#usageFlush ??= setTimeout(() => this.flushUsage(), USAGE_FLUSH_MS).unref();
        return;
      }
      if (this.#catalog) {
        this.#catalog.usage.record({ surface: this.surface, command, profile: profile ?? null, outcome });
        return;
      }
      this.#journalUsage({ surface: this.surface, command, profile: profile ?? null, outcome, at: new Date().toISOString() });
    } catch {
      // Usage statistics are best effort: a read-only or broken catalog must not fail the command.
    }
  }

  /**
   * Writes the usage lines this runtime has batched (at most a second old) in
   * one transaction, and takes in what CLI runs journaled meanwhile.
   */
  flushUsage(): void {
    if (this.#usageFlush) clearTimeout(this.#usageFlush);
    this.#usageFlush = undefined;
    const lines = this.#pendingUsage.splice(0);
    if (!lines.length && !this.#catalog) return;
    try {
      if (lines.length) this.catalog.usage.recordJournal(lines);
      // Lines short CLI runs journaled since this process opened the catalog.
      this.#ingestUsageJournal(this.catalog);
    } catch {
      // best effort, like recordUsage
    }
  }

  #journalUsage(line: UsageJournalLine): void {
    const file = this.layout.usageJournal;
    const append = (): void => fs.appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    try {
      if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > USAGE_JOURNAL_MAX_BYTES) return;
      append();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(this.layout.home, { recursive: true, mode: 0o700 });
      append();
    }
  }

  /** Moves the journal aside (so concurrent writers start a new one), records its lines in one transaction, deletes it. */
  #ingestUsageJournal(catalog: Catalog): void {
    const file = this.layout.usageJournal;
    const claimed = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      fs.renameSync(file, claimed);
    } catch {
      return; // no journal (the usual case), or another process took it
    }
    try {
      const lines: UsageJournalLine[] = [];
      for (const text of fs.readFileSync(claimed, 'utf8').split('\n')) {
        try {
          const value: unknown = text.trim() ? JSON.parse(text) : null;
          if (value !== null && typeof value === 'object') lines.push(value as UsageJournalLine);
        } catch {
          // a torn or foreign line is skipped
        }
      }
      catalog.usage.recordJournal(lines.map((l) => ({ surface: l.surface, command: l.command, profile: l.profile, outcome: l.outcome, occurredAt: l.at })));
    } catch {
      // best effort, like recordUsage
    } finally {
      fs.rmSync(claimed, { force: true });
    }
  }

  /** The SQL text of the catalog schema (gflow://db/schema). */
  async schemaSql(): Promise<string> {
    return (await loadCatalogModule()).SCHEMA_SQL;
  }

  /** Registers cleanup for a lazily opened service. */
  onClose(closer: () => Promise<void> | void): void {
    this.#closers.push(closer);
  }

  /** Cancels running jobs (settled as the worker sees fit), closes services and the catalog. */
  async close(): Promise<void> {
    await this.jobs.cancelAll();
    this.flushUsage();
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
