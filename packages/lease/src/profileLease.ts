import { clearHolderRecord } from './holderRecord.js';
import { releaseProfile } from './leaseRegistry.js';
import type { HeldFileLock } from './sqliteLock.js';

/**
 * The right to drive one Chromium profile, held until released or until the process dies.
 * Usable with `await using lease = await acquireProfileLease(...)`.
 */
export interface ProfileLease extends AsyncDisposable {
  readonly profileName: string;
  /** The canonical profile directory the lease is keyed on. */
  readonly profileDir: string;
  readonly lockPath: string;
  readonly acquiredAt: Date;
  /** True once release() has run. */
  readonly released: boolean;
  /** Unlocks and closes; never unlinks a file. Idempotent. */
  release(): Promise<void>;
}

export interface ProfileLeaseParts {
  readonly profileName: string;
  readonly profileDir: string;
  readonly lockPath: string;
  readonly holderPath: string;
  readonly ownerToken: string;
  readonly acquiredAt: Date;
  readonly lock: HeldFileLock;
}

/** Wraps a held lock as a ProfileLease. */
export function createProfileLease(parts: ProfileLeaseParts): ProfileLease {
  let released = false;
  const release = (): Promise<void> => {
    if (released) return Promise.resolve();
    released = true;
    try {
      // Still holding the lock here, so the record can only be ours; emptied, not unlinked.
      clearHolderRecord(parts.holderPath, parts.ownerToken);
      parts.lock.close();
    } finally {
      releaseProfile(parts.profileDir, parts.ownerToken);
    }
    return Promise.resolve();
  };
  return {
    profileName: parts.profileName,
    profileDir: parts.profileDir,
    lockPath: parts.lockPath,
    acquiredAt: parts.acquiredAt,
    get released() {
      return released;
    },
    release,
    [Symbol.asyncDispose]: release,
  };
}
