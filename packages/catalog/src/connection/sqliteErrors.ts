import { basename } from 'node:path';
import { CatalogBusyError, DataStoreError, isGflowError } from '@gflow/errors';

/** SQLite's extended result code of a thrown error (`SQLITE_BUSY_SNAPSHOT`, …), if it has one. */
export function sqliteCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** Another connection holds the lock this statement needed, past the busy timeout. */
export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteCodeOf(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Where a catalog error happened: the file, and how long SQLite waited for a lock. */
export interface CatalogWhere {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/**
 * CatalogBusyError (exit 42, retryable): another process held the catalog's write lock for longer
 * than gflow waits. Named by its file name only (an envelope carries no paths); never a migration
 * refusal, which would send the user to abandon a healthy catalog (issue 40).
 */
export function catalogBusyError(where: CatalogWhere, cause: unknown): CatalogBusyError {
  const seconds = Math.round(where.busyTimeoutMs / 100) / 10;
  return new CatalogBusyError(
    `The catalog (${basename(where.path)}) is locked by another process: still locked after waiting ${seconds} s. Nothing was changed.`,
    { cause, extensions: { catalog: basename(where.path), waited_seconds: seconds } },
  );
}

/**
 * What SQLite threw at a catalog call, as gflow's error: a busy or locked database is
 * CatalogBusyError, a read-only one a DataStoreError that says so; anything else is returned as
 * it came (gflow errors included).
 */
export function toCatalogError(error: unknown, where: CatalogWhere): unknown {
  if (isGflowError(error)) return error;
  if (isSqliteBusy(error)) return catalogBusyError(where, error);
  const code = sqliteCodeOf(error);
  if (code?.startsWith('SQLITE_READONLY')) {
    return new DataStoreError(`The catalog (${basename(where.path)}) cannot be written: it is read-only.`, {
      cause: error,
      remediationHint:
        'Make gflow.db, its -wal and -shm files and their directory writable by this user, or point GFLOW_CLI_DB_PATH at a writable file.',
    });
  }
  return error;
}
