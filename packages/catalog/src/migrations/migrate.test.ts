import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataMigrationError, exitCodeOf } from '@gflow/errors';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  MIGRATIONS_DIR,
  loadMigrations,
  migrationChecksum,
} from './loadMigrations.js';
import { SCHEMA_SQL, openCatalog } from '../index.js';
import { tempDir } from '../../test/helpers.js';

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
beforeEach(() => {
  tmp = tempDir();
  dbPath = path.join(tmp.dir, 'gflow.db');
});
afterEach(() => tmp.cleanup());

function ledger(file: string): Array<{ version: number; filename: string; checksum: string; applied_at: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT * FROM schema_migrations ORDER BY version').all() as never;
  } finally {
    db.close();
  }
}

describe('migrations', () => {
  it('ships 0001_initial.sql and serves the whole schema text', () => {
    expect(MIGRATIONS[0]?.filename).toBe('0001_initial.sql');
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
    for (const table of [
      'profiles',
      'projects',
      'assets',
      'operations',
      'operation_assets',
      'local_files',
      'generation_queue',
      'usage_events',
    ]) {
      expect(SCHEMA_SQL).toContain(`CREATE TABLE ${table} (`);
    }
  });

  it('applies every migration once, records the ledger and mirrors user_version', () => {
    openCatalog({ path: dbPath, now: () => new Date('2026-01-02T03:04:05.678Z') }).close();
    openCatalog({ path: dbPath }).close();
    const rows = ledger(dbPath);
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(rows[0]).toMatchObject({
      filename: '0001_initial.sql',
      checksum: MIGRATIONS[0]?.checksum,
      applied_at: '2026-01-02T03:04:05.678Z',
    });
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('checksums ignore CRLF and trailing whitespace but not content', () => {
    const sql = 'CREATE TABLE t (a INT);\nSELECT 1;\n';
    expect(migrationChecksum('CREATE TABLE t (a INT);  \r\nSELECT 1;\r\n\r\n')).toBe(migrationChecksum(sql));
    expect(migrationChecksum('CREATE TABLE t (b INT);\nSELECT 1;\n')).not.toBe(migrationChecksum(sql));
    expect(migrationChecksum(sql)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses checksum drift with DataMigrationError (exit 16) and does not rewrite the ledger', () => {
    openCatalog({ path: dbPath }).close();
    const db = new Database(dbPath);
    db.prepare("UPDATE schema_migrations SET checksum = 'deadbeef' WHERE version = 1").run();
    db.close();
    const before = ledger(dbPath);
    let caught: unknown;
    try {
      openCatalog({ path: dbPath });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataMigrationError);
    expect(exitCodeOf(caught)).toBe(16);
    expect((caught as DataMigrationError).detail).toMatch(/0001_initial\.sql/);
    expect(ledger(dbPath)).toEqual(before);
  });

  it('refuses a schema newer than the code (ledger row or user_version)', () => {
    openCatalog({ path: dbPath }).close();
    const db = new Database(dbPath);
    db.prepare("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 'x', '2030-01-01T00:00:00.000Z')").run();
    db.close();
    expect(() => openCatalog({ path: dbPath })).toThrow(DataMigrationError);
    expect(() => openCatalog({ path: dbPath, readonly: true })).toThrow(/newer than this gflow/);

    const other = path.join(tmp.dir, 'other.db');
    openCatalog({ path: other }).close();
    const db2 = new Database(other);
    db2.pragma('user_version = 7');
    db2.close();
    expect(() => openCatalog({ path: other })).toThrow(/version 7, newer/);
  });

  it('runs each migration in its own transaction: a failing file leaves the earlier ones applied', () => {
    const dir = path.join(tmp.dir, 'migrations');
    mkdirSync(dir);
    copyFileSync(path.join(MIGRATIONS_DIR, '0001_initial.sql'), path.join(dir, '0001_initial.sql'));
    writeFileSync(
      path.join(dir, '0002_broken.sql'),
      'CREATE TABLE extra (a INT);\nINSERT INTO no_such_table VALUES (1);\n',
    );
    const migrations = loadMigrations(dir);
    expect(() => openCatalog({ path: dbPath, migrations })).toThrow(DataMigrationError);
    expect(ledger(dbPath).map((r) => r.version)).toEqual([1]);
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get()).toBeUndefined();
    db.close();
  });

  it('applies a later migration on the next open and refuses read-only opens while one is pending', () => {
    openCatalog({ path: dbPath }).close();
    const dir = path.join(tmp.dir, 'migrations');
    mkdirSync(dir);
    for (const m of MIGRATIONS) copyFileSync(path.join(MIGRATIONS_DIR, m.filename), path.join(dir, m.filename));
    const next = MIGRATIONS.length + 1;
    writeFileSync(
      path.join(dir, `${String(next).padStart(4, '0')}_more.sql`),
      'ALTER TABLE assets ADD COLUMN note TEXT;\n',
    );
    const migrations = loadMigrations(dir);
    expect(() => openCatalog({ path: dbPath, migrations, readonly: true })).toThrow(/opened read-only/);
    const catalog = openCatalog({ path: dbPath, migrations });
    expect(catalog.migrationStatus()).toMatchObject({
      pending: [],
      drifted: [],
      unknown: [],
      userVersion: next,
      latest: next,
    });
    catalog.close();
    // The shipped code (one migration fewer) now sees a newer schema.
    expect(() => openCatalog({ path: dbPath })).toThrow(DataMigrationError);
  });

  it('refuses misnumbered migration directories', () => {
    const dir = path.join(tmp.dir, 'gap');
    mkdirSync(dir);
    writeFileSync(path.join(dir, '0002_x.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(/without gaps/);
    expect(readFileSync(path.join(dir, '0002_x.sql'), 'utf8')).toBe('SELECT 1;');
  });
});
