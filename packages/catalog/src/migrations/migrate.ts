import type { Database } from 'better-sqlite3';
import { DataMigrationError } from '@gflow/errors';
import type { Migration } from './loadMigrations.js';
import { isSqliteBusy } from '../connection/sqliteErrors.js';

/** A row of `schema_migrations`, the source of truth for what was applied. */
export interface AppliedMigration {
  readonly version: number;
  readonly filename: string;
  readonly checksum: string;
  readonly applied_at: string;
}

/** Where a database stands against the code's migrations. */
export interface MigrationStatus {
  readonly applied: readonly AppliedMigration[];
  readonly pending: readonly Migration[];
  /** Applied migrations whose file or checksum differs from the shipped one. */
  readonly drifted: readonly AppliedMigration[];
  /** Applied versions this code does not know (a newer gflow wrote them). */
  readonly unknown: readonly AppliedMigration[];
  readonly userVersion: number;
  readonly latest: number;
}

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  filename   TEXT NOT NULL,
  checksum   TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

function ledgerExists(db: Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined
  );
}

/** Compares the database with the shipped migrations; never writes. */
export function migrationStatus(db: Database, migrations: readonly Migration[]): MigrationStatus {
  const applied = ledgerExists(db)
    ? (db
        .prepare('SELECT version, filename, checksum, applied_at FROM schema_migrations ORDER BY version')
        .all() as AppliedMigration[])
    : [];
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const appliedVersions = new Set(applied.map((a) => a.version));
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  return {
    applied,
    pending: migrations.filter((m) => !appliedVersions.has(m.version)),
    drifted: applied.filter((a) => {
      const m = byVersion.get(a.version);
      return m !== undefined && (m.checksum !== a.checksum || m.filename !== a.filename);
    }),
    unknown: applied.filter((a) => !byVersion.has(a.version)),
    userVersion,
    latest: migrations.at(-1)?.version ?? 0,
  };
}

/** Throws DataMigrationError when the database is newer than the code or has drifted. */
export function assertMigrationsCompatible(status: MigrationStatus): void {
  const newest = Math.max(status.userVersion, ...status.applied.map((a) => a.version));
  if (status.unknown.length > 0 || newest > status.latest) {
    throw new DataMigrationError(
      `The catalog schema is at version ${newest}, newer than this gflow understands (${status.latest}).`,
      { extensions: { schema_version: newest, supported_version: status.latest } },
    );
  }
  const drift = status.drifted[0];
  if (drift) {
    throw new DataMigrationError(
      `Migration ${drift.filename} (version ${drift.version}) was applied with checksum ${drift.checksum.slice(0, 12)}…, which differs from the shipped file; the catalog is not rewritten.`,
      {
        remediationHint:
          'Restore the gflow version that created this catalog, or point the catalog path at another file. gflow never rewrites an applied migration.',
        extensions: { drifted_versions: status.drifted.map((d) => d.version) },
      },
    );
  }
}

/**
 * Brings the database to the newest shipped migration. Each migration runs in
 * its own BEGIN IMMEDIATE transaction that re-reads the ledger first, so two
 * processes opening a fresh catalog at once apply each file exactly once.
 * Refuses (DataMigrationError) a drifted or newer schema without touching it. A lock another
 * process holds past the busy timeout is rethrown as SQLite's busy error.
 */
export function migrate(db: Database, migrations: readonly Migration[], now: () => string): MigrationStatus {
  const before = migrationStatus(db, migrations);
  assertMigrationsCompatible(before);
  // Nothing to apply: no write transaction at all, so opening a migrated catalog never waits for
  // another process's write lock (issue 40: that wait ended as a "migration refused").
  if (before.pending.length === 0) return before;
  for (const migration of before.pending) {
    const apply = db.transaction(() => {
      db.exec(CREATE_LEDGER);
      const done = db.prepare('SELECT checksum FROM schema_migrations WHERE version = ?').get(migration.version);
      if (done !== undefined) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, filename, checksum, applied_at) VALUES (?, ?, ?, ?)').run(
        migration.version,
        migration.filename,
        migration.checksum,
        now(),
      );
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      apply.immediate();
    } catch (error) {
      // Another process holds the write lock: the caller says so (CatalogBusyError), never "refused".
      if (isSqliteBusy(error)) throw error;
      throw new DataMigrationError(
        `Migration ${migration.filename} could not be applied; the catalog was left at the previous version.`,
        {
          cause: error,
          remediationHint: 'The database may hold tables gflow did not create; point the catalog path at another file.',
        },
      );
    }
  }
  const status = migrationStatus(db, migrations);
  assertMigrationsCompatible(status);
  return status;
}

/** Read-only check: refuses drift, a newer schema and pending migrations. */
export function verifyMigrated(db: Database, migrations: readonly Migration[]): MigrationStatus {
  const status = migrationStatus(db, migrations);
  assertMigrationsCompatible(status);
  if (status.pending.length > 0) {
    throw new DataMigrationError(
      `The catalog needs ${status.pending.length} migration(s) (to version ${status.latest}) and was opened read-only.`,
      { remediationHint: 'Run any gflow command that writes (or open the catalog read-write once) to migrate it.' },
    );
  }
  return status;
}
