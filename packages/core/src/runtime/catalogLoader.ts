import type * as CatalogModuleNamespace from '@gflow/catalog';
import type { Catalog, HistoryPromptsMode, TaskQueue } from '@gflow/catalog';
import { claimantPidIsAlive } from '@gflow/catalog/claimant';
import { CatalogBusyError, isGflowError } from '@gflow/errors';
import { settleDeadClaims } from '../jobs/strandedTasks.js';
import type { Logger } from './logger.js';
import { openRuntimes } from './openRuntimes.js';

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

export interface CatalogLoaderOptions {
  readonly path: string;
  /** `redacted` keeps only a hash of prompts and display names. */
  readonly historyPrompts: HistoryPromptsMode;
  /** This process's pid and start token in a claimant string: its own rows are alive, a dead process's with a reused pid are not. */
  readonly startToken: string;
  /** Called once the catalog is open (the usage recorder takes in what was journaled meanwhile). */
  readonly onOpen?: (catalog: Catalog) => void;
  /** How long a write waits for another process's lock (GFLOW_CLI_CATALOG_BUSY_SECONDS). */
  readonly busyTimeoutMs: number;
  /** The profile leases' directory: who is at work, named in a CatalogBusyError. */
  readonly locksDir: string;
  /** Where the tasks settled on opening are said (info). */
  readonly logger?: Logger;
}

/**
 * The catalog of one runtime, opened lazily: {@link ready} loads the code,
 * {@link catalog} opens (and migrates) the database on first use. Opening
 * settles the task rows a dead process left `working` (jobs/strandedTasks'
 * settleDeadClaims: `indeterminate` when it may have spent credits; before
 * that a background task is queued again, others `cancelled` or `failed`).
 */
export class CatalogLoader {
  readonly #options: CatalogLoaderOptions;
  #catalog: Catalog | undefined;
  #queue: TaskQueue | undefined;

  constructor(options: CatalogLoaderOptions) {
    this.#options = options;
  }

  /** Loads the catalog's code; idempotent. */
  async ready(): Promise<void> {
    await loadCatalogModule();
  }

  /** Whether this process has loaded the catalog's code (any runtime's `ready()`). */
  get loaded(): boolean {
    return catalogModule !== undefined;
  }

  /** The catalog when it is open, without opening it. */
  get opened(): Catalog | undefined {
    return this.#catalog;
  }

  /** The catalog, opened on first use, after {@link ready}. */
  get catalog(): Catalog {
    if (!this.#catalog) {
      if (!catalogModule)
        throw new Error('gflow.catalog was read before `await gflow.ready()` loaded the catalog code.');
      const catalog = catalogModule.openCatalog({
        path: this.#options.path,
        historyPrompts: this.#options.historyPrompts,
        busyTimeoutMs: this.#options.busyTimeoutMs,
      });
      // Through the embedded queue's port, whose statements run when called: settled before the
      // catalog is handed out. Its log lines follow; a failure to settle is said, never thrown here.
      const queue = catalogModule.sqliteTaskQueue(() => catalog.tasks);
      settleDeadClaims(queue, (claimant) => this.isAlive(claimant), this.#options.logger).catch((error: unknown) =>
        this.#options.logger?.warn('settling the tasks of dead processes failed', { error: String(error) }),
      );
      this.#catalog = catalog;
      this.#options.onOpen?.(catalog);
    }
    return this.#catalog;
  }

  /** The catalog's own task queue behind the queue port (the catalog opens on its first call). */
  get queue(): TaskQueue {
    if (!catalogModule) throw new Error('gflow.queue was read before `await gflow.ready()` loaded the catalog code.');
    this.#queue ??= catalogModule.sqliteTaskQueue(() => this.catalog.tasks);
    return this.#queue;
  }

  /**
   * What an operation threw, as gflow's error where it came from SQLite (busy, read-only: the
   * open catalog's errorOf); a busy catalog also names the gflow processes holding a profile lease
   * now, the likely writers (issue 40). Anything else comes back as it was.
   */
  async explain(error: unknown): Promise<unknown> {
    const mapped = this.#catalog ? this.#catalog.errorOf(error) : error;
    if (!isGflowError(mapped) || !mapped.is('catalog-busy')) return mapped;
    const { describeLeaseHolder, readLeaseHolders } = await import('@gflow/lease');
    const holders = readLeaseHolders(this.#options.locksDir);
    if (holders.length === 0 || mapped.extensions['holders'] !== undefined) return mapped;
    return new CatalogBusyError(
      `${mapped.detail} gflow processes at work now: ${holders.slice(0, 5).map(describeLeaseHolder).join('; ')}.`,
      {
        cause: mapped.cause ?? mapped,
        extensions: {
          ...mapped.extensions,
          holders: holders.map((h) => ({
            pid: h.pid,
            profile: h.profileName,
            surface: h.surface ?? null,
            doing: h.doing ?? null,
          })),
        },
      },
    );
  }

  /**
   * Whether the process a claimant names still runs: a claim of this pid by the start token of one
   * of this process's open runtimes (openRuntimes.ts; a dead process whose pid this one reuses is
   * not alive), others by their pid.
   */
  isAlive(claimant: string): boolean {
    const own = `:${process.pid}:`;
    const at = claimant.lastIndexOf(own);
    if (at < 0) return claimantPidIsAlive(claimant);
    const token = claimant.slice(at + own.length);
    return token === this.#options.startToken || openRuntimes.has(token);
  }

  /** The SQL text of the catalog schema (gflow://db/schema). */
  async schemaSql(): Promise<string> {
    return (await loadCatalogModule()).SCHEMA_SQL;
  }

  close(): void {
    this.#catalog?.close();
    this.#catalog = undefined;
  }
}
