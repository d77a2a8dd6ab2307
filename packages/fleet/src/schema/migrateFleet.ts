import { DataMigrationError } from '@gflow/errors';
import { type Migration, loadMigrations } from '@gflow/catalog';
import { fileURLToPath } from 'node:url';
import type { PoolClient } from 'pg';

/** The fleet's migration files (packages/fleet/migrations), numbered from 0001 without gaps. */
export const FLEET_MIGRATIONS: readonly Migration[] = loadMigrations(
  fileURLToPath(new URL('../../migrations/', import.meta.url)),
);

/** One lock for every process that migrates the fleet's schema (a constant, so they queue on it). */
const MIGRATION_LOCK = 46_046_046;

const LEDGER = `CREATE TABLE IF NOT EXISTS gflow.schema_migrations (
  version integer PRIMARY KEY, filename text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`;

interface Applied {
  readonly version: number;
  readonly filename: string;
  readonly checksum: string;
}

/** A ledger newer than this code, or a migration applied from another file: refused, never rewritten. */
function assertCompatible(applied: readonly Applied[], migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const newest = Math.max(0, ...applied.map((a) => a.version));
  if (newest > latest)
    throw new DataMigrationError(
      `The fleet's schema is at version ${newest}, newer than this gflow understands (${latest}).`,
      {
        extensions: { schema_version: newest, supported_version: latest },
        remediationHint: 'Run the same gflow version on every machine of the fleet.',
      },
    );
  const drifted = applied.find((a) => {
    const m = migrations.find((x) => x.version === a.version);
    return m !== undefined && (m.checksum !== a.checksum || m.filename !== a.filename);
  });
  if (drifted)
    throw new DataMigrationError(
      `Fleet migration ${drifted.filename} was applied from a different file; the fleet's schema is not rewritten.`,
      { extensions: { drifted_versions: [drifted.version] } },
    );
}

/**
 * Brings the fleet's schema up to date, once across every process that starts at the same time:
 * one transaction under an advisory lock reads the ledger, refuses a newer or drifted schema
 * (DataMigrationError, exit 16) and applies what is pending.
 */
export async function migrateFleet(client: PoolClient, migrations = FLEET_MIGRATIONS): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS gflow');
    await client.query(LEDGER);
    const { rows } = await client.query<Applied>(
      'SELECT version, filename, checksum FROM gflow.schema_migrations ORDER BY version',
    );
    assertCompatible(rows, migrations);
    const done = new Set(rows.map((r) => r.version));
    for (const migration of migrations.filter((m) => !done.has(m.version))) {
      await client.query(migration.sql);
      await client.query('INSERT INTO gflow.schema_migrations (version, filename, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.filename,
        migration.checksum,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
