import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import DatabaseConstructor from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { DataStoreError } from '@gflow/errors';
import { toCatalogError } from './sqliteErrors.js';

/**
 * Milliseconds a statement waits for another process's lock before SQLITE_BUSY: long enough to
 * wait out another process's long write (issue 40: a 10 s BEGIN EXCLUSIVE must pass), after which
 * the caller gets CatalogBusyError. Settings override it (GFLOW_CLI_CATALOG_BUSY_SECONDS).
 */
export const BUSY_TIMEOUT_MS = 30_000;

const SQLITE_HEADER = 'SQLite format 3\u0000';
const NOT_SQLITE_HINT =
  'Move the file aside (or restore it from a backup) and run gflow again, or point the catalog path at another file. gflow never overwrites a file it cannot read as a catalog.';

function isMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

function notACatalog(detail: string, cause?: unknown): DataStoreError {
  return new DataStoreError(detail, { remediationHint: NOT_SQLITE_HINT, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Refuses, before SQLite touches it, anything at `path` that is not an empty
 * file or a SQLite database: a directory, a text file, a truncated header.
 */
function checkExistingFile(path: string): boolean {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw notACatalog('The catalog path exists but is not a regular file.');
    size = stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if (error instanceof DataStoreError) throw error;
    throw new DataStoreError('The catalog file cannot be read.', { cause: error });
  }
  if (size === 0) return true;
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || header.toString('latin1') !== SQLITE_HEADER) {
    throw notACatalog('The file at the catalog path is not a SQLite database.');
  }
  return true;
}

export interface OpenDatabaseOptions {
  readonly readonly?: boolean;
  /** How long a statement waits for another process's lock (default BUSY_TIMEOUT_MS). */
  readonly busyTimeoutMs?: number;
}

/**
 * Opens the catalog file with gflow's connection settings: WAL journal,
 * foreign keys on, a busy timeout, NORMAL sync (durable in WAL at commit
 * boundaries for our use). A corrupt or foreign file → DataStoreError (exit 16); a lock held
 * past the busy timeout → CatalogBusyError (exit 42).
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const readonly = options.readonly === true;
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const memory = isMemory(path);
  const exists = memory ? false : checkExistingFile(path);
  if (readonly && !memory && !exists) {
    throw new DataStoreError('The catalog does not exist yet and was opened read-only.', {
      remediationHint: 'Run a gflow command that records something first, or check the catalog path.',
    });
  }
  if (!memory && !exists) mkdirSync(dirname(path), { recursive: true });
  let db: Database | undefined;
  try {
    db = new DatabaseConstructor(memory ? ':memory:' : path, { readonly, fileMustExist: readonly });
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Reading the schema forces SQLite to parse the header and the schema table.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (!readonly && !memory) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw notACatalog('The catalog file is corrupt or not a SQLite database.', error);
    }
    // A lock another process holds (CatalogBusyError), a read-only file (DataStoreError saying so).
    const known = toCatalogError(error, { path, busyTimeoutMs });
    if (known !== error) throw known;
    throw new DataStoreError('The catalog could not be opened.', { cause: error });
  }
}
