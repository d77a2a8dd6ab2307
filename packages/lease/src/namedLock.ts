import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BadParameterError, hasErrorCode } from '@gflow/errors';
import {
  type LeaseActivity,
  type LeaseHolder,
  clearHolderRecord,
  readHolderRecord,
  writeHolderRecord,
} from './holderRecord.js';
import { assertSameFile, checkLockFile, ensureLockFile, prepareLocksDir } from './lockFile.js';
import { holderPathFor } from './lockPath.js';
import { tryLockFile } from './sqliteLock.js';

/** A held named lock; `release` is idempotent. */
export interface NamedLock {
  readonly name: string;
  readonly lockPath: string;
  /** Says what the holder does now, in its record (no-op without one, or once released). */
  setActivity(activity: LeaseActivity): void;
  release(): void;
}

/** Who the holder says it is, recorded beside the lock for other processes (see readNamedLockHolder). */
export interface NamedLockRecord {
  /** The profile the role is for (a plain name). */
  readonly profileName: string;
  /** What kind of process holds it ("worker"). */
  readonly surface: string;
  readonly activity?: LeaseActivity;
}

const LOCK_NAME = /^[\w.-]{1,96}$/;

function lockPathOf(locksDir: string, name: string): string {
  if (!LOCK_NAME.test(name))
    throw new BadParameterError(`A lock name is [A-Za-z0-9_.-]{1,96}; got ${JSON.stringify(name)}.`);
  return path.join(locksDir, `${name}.lock`);
}

/**
 * One non-blocking attempt at an exclusive, process-wide lock called `name` in `locksDir`
 * (`<name>.lock`, the same kernel lock as a profile lease: it dies with its process, however it
 * dies). Returns the held lock, or undefined when another holder has it (this process included).
 * Used for "one of these per profile" roles, e.g. the background worker that drains a profile's
 * task queue; it guards no browser profile (that is acquireProfileLease's).
 *
 * With `record`, the holder says who it is in `<name>.holder.json` beside the lock (written once
 * the lock is held, emptied before it is released), so another process can name the holder
 * without touching the lock (readNamedLockHolder). Like a lease's record it is diagnostic: a
 * killed holder's record stays behind as stale text, and only the kernel lock decides.
 */
export function tryNamedLock(locksDir: string, name: string, record?: NamedLockRecord): NamedLock | undefined {
  const lockPath = lockPathOf(locksDir, name);
  prepareLocksDir(locksDir);
  const identity = ensureLockFile(lockPath);
  const attempt = tryLockFile(lockPath);
  if (!attempt.held) return undefined;
  try {
    assertSameFile(lockPath, identity);
  } catch (error) {
    attempt.lock.close();
    throw error;
  }
  const holderPath = holderPathFor(lockPath);
  const ownerToken = randomUUID();
  const acquiredAt = new Date();
  const write = (activity: LeaseActivity | undefined): void => {
    if (record) writeHolderRecord(holderPath, { ...record, activity, ownerToken, acquiredAt });
  };
  try {
    write(record?.activity);
  } catch (error) {
    attempt.lock.close();
    throw error;
  }
  let released = false;
  return {
    name,
    lockPath,
    setActivity: (activity) => {
      if (!released) write(activity);
    },
    release: () => {
      if (released) return;
      released = true;
      if (record) clearHolderRecord(holderPath, ownerToken);
      attempt.lock.close();
    },
  };
}

/**
 * Who holds the named lock, as its holder recorded it (tryNamedLock's `record`); undefined when
 * there is no record (nobody holds it, or a holder that keeps none). Never touches the lock, so it
 * cannot get in the way of a process taking it. The record may be a killed holder's: the caller
 * checks that its pid still runs. A symlinked or foreign lock path is a SecurityError.
 */
export function readNamedLockHolder(locksDir: string, name: string): LeaseHolder | undefined {
  const lockPath = lockPathOf(locksDir, name);
  try {
    checkLockFile(lockPath);
  } catch (error) {
    if (hasErrorCode(error, 'security')) throw error;
    return undefined;
  }
  return readHolderRecord(holderPathFor(lockPath));
}
