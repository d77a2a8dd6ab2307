import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { assertSameFile, ensureLockFile, prepareLocksDir } from './lockFile.js';
import { tryLockFile } from './sqliteLock.js';

/** A held named lock; `release` is idempotent. */
export interface NamedLock {
  readonly name: string;
  readonly lockPath: string;
  release(): void;
}

const LOCK_NAME = /^[\w.-]{1,96}$/;

/**
 * One non-blocking attempt at an exclusive, process-wide lock called `name` in `locksDir`
 * (`<name>.lock`, the same kernel lock as a profile lease: it dies with its process, however it
 * dies). Returns the held lock, or undefined when another holder has it (this process included).
 * Used for "one of these per profile" roles, e.g. the background worker that drains a profile's
 * task queue; it guards no browser profile (that is acquireProfileLease's).
 */
export function tryNamedLock(locksDir: string, name: string): NamedLock | undefined {
  if (!LOCK_NAME.test(name))
    throw new BadParameterError(`A lock name is [A-Za-z0-9_.-]{1,96}; got ${JSON.stringify(name)}.`);
  prepareLocksDir(locksDir);
  const lockPath = path.join(locksDir, `${name}.lock`);
  const identity = ensureLockFile(lockPath);
  const attempt = tryLockFile(lockPath);
  if (!attempt.held) return undefined;
  try {
    assertSameFile(lockPath, identity);
  } catch (error) {
    attempt.lock.close();
    throw error;
  }
  let released = false;
  return {
    name,
    lockPath,
    release: () => {
      if (released) return;
      released = true;
      attempt.lock.close();
    },
  };
}
