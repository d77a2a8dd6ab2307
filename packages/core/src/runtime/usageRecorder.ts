import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Catalog, JournaledUsage } from '@gflow/catalog';
import { usageRecordingEnabled } from '../home/configToml.js';
import type { HomeLayout } from '../home/homeLayout.js';
import { SURFACE_POLICY, type Surface } from './surfacePolicy.js';

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

/** The recorder's view of the runtime's catalog (a CatalogLoader). */
export interface UsageCatalogAccess {
  /** Whether the catalog's code is loaded (batching needs it to write later). */
  readonly loaded: boolean;
  /** The catalog when it is open, without opening it. */
  readonly opened: Catalog | undefined;
  /** The catalog, opened if need be. */
  readonly catalog: Catalog;
}

export interface UsageRecorderOptions {
  readonly surface: Surface;
  readonly layout: HomeLayout;
  readonly catalogs: UsageCatalogAccess;
}

/**
 * The local usage statistics of one runtime (gflow_usage_stats): never fails
 * the call it records. Servers and library runtimes batch their lines in
 * memory for up to a second, then write them in one transaction — or, while
 * their catalog is not loaded (a server answering only reads of the model
 * catalog), in one append to the journal: no file is touched per call. A CLI
 * run records straight into an open catalog, and a run whose catalog is
 * closed appends to that small journal in the home, which the next opening of
 * the catalog takes in ({@link ingestJournal}).
 */
export class UsageRecorder {
  readonly #options: UsageRecorderOptions;
  #enabled: boolean | undefined;
  readonly #pending: JournaledUsage[] = [];
  #flushTimer: NodeJS.Timeout | undefined;

  constructor(options: UsageRecorderOptions) {
    this.#options = options;
  }

  /** Records one invocation (unless `gflow telemetry off`). */
  record(command: string, profile?: string, outcome: 'ok' | 'error' = 'ok'): void {
    const { surface, layout, catalogs } = this.#options;
    try {
      this.#enabled ??= usageRecordingEnabled(layout.configToml);
      if (!this.#enabled) return;
      if (SURFACE_POLICY[surface].batchUsage) {
        // Servers answer many small calls: their lines are written in batches.
        this.#pending.push({
          surface,
          command,
          profile: profile ?? null,
          outcome,
          occurredAt: new Date().toISOString(),
        });
        this.#flushTimer ??= setTimeout(() => this.flush(), USAGE_FLUSH_MS).unref();
        return;
      }
      const open = catalogs.opened;
      if (open) {
        open.usage.record({ surface, command, profile: profile ?? null, outcome });
        return;
      }
      this.#journal([{ surface, command, profile: profile ?? null, outcome, at: new Date().toISOString() }]);
    } catch {
      // Usage statistics are best effort: a read-only or broken catalog must not fail the command.
    }
  }

  /** Writes the batched lines (at most a second old) in one transaction, and takes in what CLI runs journaled meanwhile. */
  flush(): void {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const { catalogs } = this.#options;
    const lines = this.#pending.splice(0);
    if (!lines.length && !catalogs.opened) return;
    try {
      if (!catalogs.loaded) {
        // Nothing has loaded the catalog's code (only reads of the model catalog ran): the journal.
        this.#journal(
          lines.map((l) => ({
            surface: l.surface,
            command: l.command,
            profile: l.profile ?? null,
            outcome: l.outcome === 'error' ? 'error' : 'ok',
            at: l.occurredAt,
          })),
        );
        return;
      }
      if (lines.length) catalogs.catalog.usage.recordJournal(lines);
      // Lines short CLI runs journaled since this process opened the catalog.
      this.ingestJournal(catalogs.catalog);
    } catch {
      // best effort, like record
    }
  }

  /** Appends lines to the journal in one write (the journal stops growing past its cap). */
  #journal(lines: readonly UsageJournalLine[]): void {
    if (lines.length === 0) return;
    const { layout } = this.#options;
    const file = layout.usageJournal;
    const text = lines
      .map(
        (l) =>
          `${JSON.stringify({ surface: l.surface, command: l.command, profile: l.profile, outcome: l.outcome, at: l.at })}\n`,
      )
      .join('');
    const append = (): void => fs.appendFileSync(file, text, { mode: 0o600 });
    try {
      if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > USAGE_JOURNAL_MAX_BYTES) return;
      append();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(layout.home, { recursive: true, mode: 0o700 });
      append();
    }
  }

  /** Moves the journal aside (so concurrent writers start a new one), records its lines in one transaction, deletes it. */
  ingestJournal(catalog: Catalog): void {
    const file = this.#options.layout.usageJournal;
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
      catalog.usage.recordJournal(
        lines.map((l) => ({
          surface: l.surface,
          command: l.command,
          profile: l.profile,
          outcome: l.outcome,
          occurredAt: l.at,
        })),
      );
    } catch {
      // best effort, like record
    } finally {
      fs.rmSync(claimed, { force: true });
    }
  }
}
