import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { assertProfileName } from '@gflow/flow-facts';
import { abortableSleep, cancelledBy } from './abortableSleep.js';
import { type LeaseActivity, type LeaseHolder, readHolderRecord, writeHolderRecord } from './holderRecord.js';
import { releaseProfile, reserveProfile } from './leaseRegistry.js';
import { assertSameFile, ensureLockFile, prepareLocksDir } from './lockFile.js';
import { canonicalProfileDir, holderPathFor, lockFileName } from './lockPath.js';
import { type ProfileLease, createProfileLease } from './profileLease.js';
import { profileLockedError, sameProcessLockedError } from './profileLockedError.js';
import { type HeldFileLock, tryLockFile } from './sqliteLock.js';
import { type WantedMark, byArrival, liveWanters, writeWantedMark } from './wantedMark.js';
import {
  DEFAULT_IDLE_HANDOFF_SECONDS,
  DEFAULT_LEASE_POLL_MS,
  validateIdleHandoffSeconds,
  validateLeaseWaitSeconds,
  validatePollMs,
} from './waitPolicy.js';

/**
 * How long a waiter that finds the profile free gives way to a process that was waiting before it
 * (see waitForLock). Bounded, so an earlier waiter that stopped polling (paused, wedged) delays the
 * next one by this much at most.
 */
const YIELD_MAX_MS = 3_000;

export interface AcquireProfileLeaseOptions {
  /** Directory holding the lock files; created 0700 when missing. */
  readonly locksDir: string;
  /** The profile's Chromium user-data dir; the lease is keyed on its canonical form. */
  readonly profileDir: string;
  /** The profile's name, for messages and the diagnostic record: a plain name by @gflow/flow-facts' rule (else exit 13 / 2). */
  readonly profileName: string;
  /** 0 fails at once when another process holds the profile; up to 3600 waits that long. */
  readonly waitSeconds: number;
  /** Retry interval while waiting; default 250 ms. */
  readonly pollMs?: number;
  /** Aborting rejects a waiting acquire with CancelledError. */
  readonly signal?: AbortSignal;
  /**
   * Called when the profile is busy and the acquire starts to wait (e.g. to tell the user), and
   * again each time another holder takes the profile while it still waits (the line moved).
   */
  readonly onWait?: (holder: LeaseHolder | undefined) => void;
  /** What kind of process this is (e.g. "mcp run", "CLI"): recorded, and named in other processes' errors. */
  readonly surface?: string;
  /** What the holder does first (recorded with the lease); later changes go through `setActivity`. */
  readonly activity?: LeaseActivity;
  /**
   * With a `waitSeconds` below this, still wait up to this long while the holder is idle and hands
   * off (a warm server's browser gives way within about a second); a busy holder is refused as
   * before. Default 5 s; 0 turns it off.
   */
  readonly idleHandoffSeconds?: number;
}

/**
 * Takes the cross-process lease on a profile.
 *
 * - Same process: a second acquire of a held (or being-acquired) profile fails at once with
 *   ProfileLockedError, whatever `waitSeconds` says.
 * - Another process holds it: with `waitSeconds` 0, ProfileLockedError (exit 11) naming the holder
 *   and what it is doing — unless that holder is idle and hands off, which is waited for up to
 *   `idleHandoffSeconds`; otherwise retries every `pollMs` until it is free, `waitSeconds` have
 *   passed (ProfileLockedError) or `signal` aborts (CancelledError). While it waits it leaves a
 *   wanted mark beside the lock, so a holder that watches (ProfileLease.onWanted) can give way.
 * - A symlinked or foreign lock path: SecurityError (exit 13).
 */
export async function acquireProfileLease(options: AcquireProfileLeaseOptions): Promise<ProfileLease> {
  const waitSeconds = validateLeaseWaitSeconds(options.waitSeconds);
  const pollMs = validatePollMs(options.pollMs ?? DEFAULT_LEASE_POLL_MS);
  const idleHandoffSeconds = validateIdleHandoffSeconds(options.idleHandoffSeconds ?? DEFAULT_IDLE_HANDOFF_SECONDS);
  const { signal, profileName } = options;
  assertProfileName(profileName);
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
    const { surface, activity } = options;
    const lock = await waitForLock({
      lockPath,
      holderPath,
      profileName,
      waitSeconds,
      idleHandoffSeconds,
      pollMs,
      signal,
      onWait: options.onWait,
      surface,
    });
    const acquiredAt = new Date();
    try {
      writeHolderRecord(holderPath, { profileName, ownerToken, acquiredAt, surface, activity });
    } catch (error) {
      lock.close();
      throw error;
    }
    entry.acquiredAt = acquiredAt;
    return createProfileLease({
      profileName,
      profileDir,
      lockPath,
      holderPath,
      ownerToken,
      acquiredAt,
      lock,
      surface,
      activity,
    });
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
  readonly idleHandoffSeconds: number;
  readonly pollMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onWait: ((holder: LeaseHolder | undefined) => void) | undefined;
  readonly surface: string | undefined;
}

/** An idle holder that watches for waiters: it gives the profile up within about a second. */
function handsOverWhenIdle(holder: LeaseHolder | undefined): boolean {
  return holder?.activity === 'idle' && holder.handsOff === true;
}

/**
 * The poll loop. Besides retrying the kernel lock it:
 * - leaves a wanted mark (and refreshes it) from its first busy attempt until it returns or
 *   throws, so a holder that hands off knows someone waits;
 * - when `waitSeconds` is shorter than `idleHandoffSeconds`, keeps waiting past it while the holder
 *   record says idle + hands off (the CLI's fail-fast next to an idle warm server), and stops at
 *   once when the holder turns busy;
 * - when it finds the lock free while a process that started waiting before it still waits, lets
 *   that one go first (for up to YIELD_MAX_MS): otherwise a holder whose own next call re-takes the
 *   lock the instant it gave it up would starve the process it gave way to.
 */
async function waitForLock(options: WaitForLockOptions): Promise<HeldFileLock> {
  const { lockPath, holderPath, profileName, waitSeconds, pollMs, signal } = options;
  const started = performance.now();
  const startedWall = Date.now();
  const deadline = started + waitSeconds * 1000;
  const handoffDeadline = started + Math.max(waitSeconds, options.idleHandoffSeconds) * 1000;
  const what = `Waiting for profile "${profileName}"`;
  /** The holder last announced through onWait ('' for an unknown one); undefined before the first. */
  let announced: string | undefined;
  let mark: WantedMark | undefined;
  let lastHolder: LeaseHolder | undefined;
  let yieldingSince: number | undefined;
  const markWanted = (): void => {
    mark ??= writeWantedMark(lockPath, options.surface);
    mark?.refresh();
  };
  try {
    for (;;) {
      const identity = ensureLockFile(lockPath);
      const attempt = tryLockFile(lockPath);
      const now = performance.now();
      if (attempt.held) {
        try {
          assertSameFile(lockPath, identity);
        } catch (error) {
          attempt.lock.close();
          throw error;
        }
        const mayYield = now < deadline && (yieldingSince === undefined || now - yieldingSince < YIELD_MAX_MS);
        if (!mayYield || !earlierWaiterExists(lockPath, mark, startedWall)) return attempt.lock;
        attempt.lock.close();
        yieldingSince ??= now;
        markWanted();
        await abortableSleep(Math.max(1, Math.min(pollMs, deadline - now)), signal, what);
        continue;
      }
      // The budget of the courtesy above counts only while the lock stays free.
      yieldingSince = undefined;
      if (now >= deadline) {
        const holder = readHolderRecord(holderPath) ?? lastHolder;
        lastHolder = holder;
        if (now >= handoffDeadline || !handsOverWhenIdle(holder)) {
          throw profileLockedError({ profileName, waitSeconds, waitedSeconds: (now - started) / 1000, holder });
        }
      }
      // The mark goes first, so whoever learns of the wait (onWait) can count on it being there.
      markWanted();
      const holder = readHolderRecord(holderPath);
      const key = holderKey(holder);
      if (announced === undefined || (key !== undefined && key !== announced)) {
        announced = key ?? '';
        lastHolder = holder ?? lastHolder;
        options.onWait?.(holder);
      }
      const until = now < deadline ? deadline : handoffDeadline;
      await abortableSleep(Math.max(1, Math.min(pollMs, until - now)), signal, what);
    }
  } finally {
    mark?.remove();
  }
}

/** Tells holders apart: a new holder (another process, or the same one again) has another key. */
function holderKey(holder: LeaseHolder | undefined): string | undefined {
  return holder === undefined ? undefined : `${holder.pid}@${holder.hostname}@${holder.acquiredAt}`;
}

/** Whether another live process started waiting for this lock before we did. */
function earlierWaiterExists(lockPath: string, mark: WantedMark | undefined, startedWall: number): boolean {
  const self =
    mark === undefined ? { createdAtMs: startedWall, name: '' } : { createdAtMs: mark.createdAtMs, name: mark.name };
  return liveWanters(lockPath, mark?.name).some((other) => byArrival(other, self) < 0);
}
