import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { abortableSleep, cancelledBy } from './abortableSleep.js';
import { type LeaseHolder, readHolderRecord, writeHolderRecord } from './holderRecord.js';
import { releaseProfile, reserveProfile } from './leaseRegistry.js';
import { assertSameFile, ensureLockFile, prepareLocksDir } from './lockFile.js';
import { canonicalProfileDir, holderPathFor, lockFileName } from './lockPath.js';
import { type ProfileLease, createProfileLease } from './profileLease.js';
import { profileLockedError, sameProcessLockedError } from './profileLockedError.js';
import { type HeldFileLock, tryLockFile } from './sqliteLock.js';
import { DEFAULT_LEASE_POLL_MS, validateLeaseWaitSeconds, validatePollMs } from './waitPolicy.js';

export interface AcquireProfileLeaseOptions {
  /** Directory holding the lock files; created 0700 when missing. */
  readonly locksDir: string;
  /** The profile's Chromium user-data dir; the lease is keyed on its canonical form. */
  readonly profileDir: string;
  /** The profile's name, for messages and the diagnostic record. */
  readonly profileName: string;
  /** 0 fails at once when another process holds the profile; up to 3600 waits that long. */
  readonly waitSeconds: number;
  /** Retry interval while waiting; default 250 ms. */
  readonly pollMs?: number;
  /** Aborting rejects a waiting acquire with CancelledError. */
  readonly signal?: AbortSignal;
  /** Called once, when the profile is busy and the acquire starts to wait (e.g. to tell the user). */
  readonly onWait?: (holder: LeaseHolder | undefined) => void;
}

/**
 * Takes the cross-process lease on a profile.
 *
 * - Same process: a second acquire of a held (or being-acquired) profile fails at once with
 *   ProfileLockedError, whatever `waitSeconds` says.
 * - Another process holds it: with `waitSeconds` 0, ProfileLockedError (exit 11) naming the holder;
 *   otherwise retries every `pollMs` until it is free, `waitSeconds` have passed (ProfileLockedError)
 *   or `signal` aborts (CancelledError).
 * - A symlinked or foreign lock path: SecurityError (exit 13).
 */
export async function acquireProfileLease(options: AcquireProfileLeaseOptions): Promise<ProfileLease> {
  const waitSeconds = validateLeaseWaitSeconds(options.waitSeconds);
  const pollMs = validatePollMs(options.pollMs ?? DEFAULT_LEASE_POLL_MS);
  const { signal, profileName } = options;
  if (signal?.aborted) throw cancelledBy(signal, `Acquiring profile "${profileName}"`);

  const profileDir = canonicalProfileDir(options.profileDir);
  const locksDir = path.resolve(options.locksDir);
  const lockPath = path.join(locksDir, lockFileName(profileDir));
  const holderPath = holderPathFor(lockPath);
  const ownerToken = randomUUID();

  const entry = { token: ownerToken, profileName, acquiredAt: undefined as Date | undefined };
  const existing = reserveProfile(profileDir, entry);
  if (existing !== undefined) throw sameProcessLockedError(profileName, existing.acquiredAt);

  try {
    prepareLocksDir(locksDir);
    const lock = await waitForLock({ lockPath, holderPath, profileName, waitSeconds, pollMs, signal, onWait: options.onWait });
    const acquiredAt = new Date();
    try {
      writeHolderRecord(holderPath, profileName, ownerToken, acquiredAt);
    } catch (error) {
      lock.close();
      throw error;
    }
    entry.acquiredAt = acquiredAt;
    return createProfileLease({ profileName, profileDir, lockPath, holderPath, ownerToken, acquiredAt, lock });
  } catch (error) {
    releaseProfile(profileDir, ownerToken);
    throw error;
  }
}

interface WaitForLockOptions {
  readonly lockPath: string;
  readonly holderPath: string;
  readonly profileName: string;
  readonly waitSeconds: number;
  readonly pollMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onWait: ((holder: LeaseHolder | undefined) => void) | undefined;
}

async function waitForLock(options: WaitForLockOptions): Promise<HeldFileLock> {
  const { lockPath, holderPath, profileName, waitSeconds, pollMs, signal } = options;
  const deadline = performance.now() + waitSeconds * 1000;
  let announced = false;
  for (;;) {
    const identity = ensureLockFile(lockPath);
    const attempt = tryLockFile(lockPath);
    if (attempt.held) {
      try {
        assertSameFile(lockPath, identity);
      } catch (error) {
        attempt.lock.close();
        throw error;
      }
      return attempt.lock;
    }
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      throw profileLockedError({ profileName, waitSeconds, holder: readHolderRecord(holderPath) });
    }
    if (!announced) {
      announced = true;
      options.onWait?.(readHolderRecord(holderPath));
    }
    await abortableSleep(Math.min(pollMs, remaining), signal, `Waiting for profile "${profileName}"`);
  }
}
