import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { ConfigurationError } from '@gflow/errors';

/** A kernel lock held through an open SQLite connection; closing it releases the lock. */
export interface HeldFileLock {
  close(): void;
}

export type LockAttempt = { readonly held: true; readonly lock: HeldFileLock } | { readonly held: false };

/**
 * One non-blocking attempt to take the exclusive lock on `lockPath` (which must exist).
 *
 * SQLite's unix VFS takes POSIX fcntl() record locks (Windows: LockFileEx) on the database file;
 * `BEGIN EXCLUSIVE` holds the write lock until the connection closes, and the kernel drops it when
 * the process dies, however it dies. `timeout: 0` makes a busy lock fail at once (our own loop does
 * the waiting, abortably), `fileMustExist` never creates a file, and journal_mode=MEMORY keeps SQLite
 * from creating a `-journal` file beside the lock. Nothing is ever written: the file stays empty.
 * Two connections in one process also conflict (SQLite tracks locks per inode in-process).
 */
export function tryLockFile(lockPath: string): LockAttempt {
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(lockPath, { timeout: 0, fileMustExist: true });
    db.pragma('journal_mode = MEMORY');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    closeQuietly(db);
    if (isBusy(error)) return { held: false };
    if (sqliteCode(error) === 'SQLITE_NOTADB') {
      throw new ConfigurationError(`${lockPath} is not a gflow lock file (it has content another program wrote).`, {
        cause: error,
        remediationHint: 'Make sure no gflow process is running, then delete that file; gflow recreates it.',
      });
    }
    throw new ConfigurationError(`Cannot lock ${lockPath}.`, { cause: error });
  }
  const held = db;
  return {
    held: true,
    lock: {
      close: () => {
        if (held.open) held.close();
      },
    },
  };
}

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

function closeQuietly(db: SqliteDatabase | undefined): void {
  try {
    if (db?.open) db.close();
  } catch {
    // A connection that never got a lock has nothing to release.
  }
}
