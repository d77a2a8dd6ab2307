import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One migration file shipped in packages/catalog/migrations. */
export interface Migration {
  /** 1, 2, … from the `NNNN_` prefix. */
  readonly version: number;
  /** e.g. `0001_initial.sql`. */
  readonly filename: string;
  readonly sql: string;
  /** SHA-256 (hex) of the normalised text, see {@link migrationChecksum}. */
  readonly checksum: string;
}

const FILE_PATTERN = /^(\d{4})_[A-Za-z0-9_-]+\.sql$/;

/** The directory the migration files ship in (next to src/, inside the package). */
export const MIGRATIONS_DIR: string = fileURLToPath(new URL('../../migrations/', import.meta.url));

/**
 * SHA-256 of a migration's text after normalising line endings (CRLF, CR → LF)
 * and trailing whitespace (per line and at the end of the file), so a checkout
 * with `core.autocrlf` or an editor that trims lines does not look like drift.
 */
export function migrationChecksum(sql: string): string {
  const normalised = sql
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}

/**
 * Reads and orders the migration files of a directory. Versions must start at 1
 * and have no gaps or duplicates: a packaging mistake is a programming error.
 */
export function loadMigrations(dir: string = MIGRATIONS_DIR): readonly Migration[] {
  const migrations = readdirSync(dir)
    .filter((name) => FILE_PATTERN.test(name))
    .map((filename): Migration => {
      const sql = readFileSync(`${dir.replace(/\/$/, '')}/${filename}`, 'utf8');
      return { version: Number(filename.slice(0, 4)), filename, sql, checksum: migrationChecksum(sql) };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(
        `catalog migrations must be numbered 0001.. without gaps; found ${m.filename} at position ${i + 1}`,
      );
  });
  return Object.freeze(migrations);
}

/** The migrations this version of the package ships, in order. */
export const MIGRATIONS: readonly Migration[] = loadMigrations();

/** The schema version this code writes (the newest shipped migration). */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * The SQL text of the whole schema (every migration, in order), served as the
 * `gflow://db/schema` MCP resource.
 */
export const SCHEMA_SQL: string = MIGRATIONS.map((m) => `-- ${m.filename}\n${m.sql.trimEnd()}\n`).join('\n');
