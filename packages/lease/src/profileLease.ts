import { type LeaseActivity, clearHolderRecord, writeHolderRecord } from './holderRecord.js';
import { releaseProfile } from './leaseRegistry.js';
import type { HeldFileLock } from './sqliteLock.js';
import { type LeaseWanter, liveWanters, wanterOf } from './wantedMark.js';
import { DEFAULT_WANTED_POLL_MS, validatePollMs } from './waitPolicy.js';

export interface OnWantedOptions {
  /** How often the holder looks for a waiter's mark; default 250 ms. */
  readonly pollMs?: number;
}

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
  /**
   * Says what the holder is doing, in the record other processes read: a waiter's
   * ProfileLockedError names it, and a fail-fast acquire waits briefly for an idle holder that
   * hands off (see {@link onWanted}). No-op once released.
   */
  setActivity(activity: LeaseActivity): void;
  /**
   * Calls `callback` when another process starts to wait for this profile (it left a wanted mark):
   * once per arrival of a first waiter, not on every look. The owner decides what to do — an idle
   * warm session gives the profile up, a busy one finishes its job and checks {@link wanted} then.
   * While a callback is registered, the record says the holder hands off (`handsOff`). The watch is
   * a poll on an unref'd timer (it never keeps the process alive) and stops on release. Returns an
   * unsubscribe.
   */
  onWanted(callback: (wanter: LeaseWanter) => void, options?: OnWantedOptions): () => void;
  /** The first process waiting for this profile right now, if any (reads the marks). */
  wanted(): LeaseWanter | undefined;
}

export interface ProfileLeaseParts {
  readonly profileName: string;
  readonly profileDir: string;
  readonly lockPath: string;
  readonly holderPath: string;
  readonly ownerToken: string;
  readonly acquiredAt: Date;
  readonly lock: HeldFileLock;
  readonly surface?: string | undefined;
  readonly activity?: LeaseActivity | undefined;
}

/** Wraps a held lock as a ProfileLease. */
export function createProfileLease(parts: ProfileLeaseParts): ProfileLease {
  let released = false;
  let activity = parts.activity;
  let activitySince = parts.acquiredAt;
  const callbacks = new Set<(wanter: LeaseWanter) => void>();
  let watch: NodeJS.Timeout | undefined;
  let wasWanted = false;

  // Rewrites during the lease are best effort, even the SecurityError of a record swapped for a
  // link (refused, never followed): acquire enforced the file rules, and a check-in after a paid job
  // must not turn the job into a failure over a diagnostic file.
  const writeRecord = (): void => {
    if (released) return;
    try {
      writeHolderRecord(parts.holderPath, {
        profileName: parts.profileName,
        ownerToken: parts.ownerToken,
        acquiredAt: parts.acquiredAt,
        surface: parts.surface,
        activity,
        activitySince,
        handsOff: callbacks.size > 0,
      });
    } catch {
      // Diagnostics only.
    }
  };

  const wanted = (): LeaseWanter | undefined => {
    if (released) return undefined;
    const first = liveWanters(parts.lockPath)[0];
    return first === undefined ? undefined : wanterOf(first);
  };

  const look = (): void => {
    const wanter = wanted();
    const arrived = wanter !== undefined && !wasWanted;
    wasWanted = wanter !== undefined;
    if (!arrived) return;
    for (const callback of [...callbacks]) {
      try {
        callback(wanter);
      } catch {
        // A failing owner callback must not stop the watch (nor crash the timer).
      }
    }
  };

  const stopWatch = (): void => {
    if (watch !== undefined) clearInterval(watch);
    watch = undefined;
  };

  const release = (): Promise<void> => {
    if (released) return Promise.resolve();
    released = true;
    stopWatch();
    callbacks.clear();
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
    setActivity: (next) => {
      if (released) return;
      const same =
        activity?.state === next.state &&
        (next.state === 'idle' || (activity?.state === 'busy' && activity.doing === next.doing));
      if (same) return;
      activity = next;
      activitySince = new Date();
      writeRecord();
    },
    onWanted: (callback, options = {}) => {
      if (released) return () => undefined;
      const pollMs = validatePollMs(options.pollMs ?? DEFAULT_WANTED_POLL_MS);
      const first = callbacks.size === 0;
      callbacks.add(callback);
      if (first) {
        writeRecord();
        // A waiter already there counts as an arrival for this first watcher.
        wasWanted = false;
        watch = setInterval(look, pollMs);
        watch.unref();
        queueMicrotask(() => {
          if (!released && callbacks.size > 0) look();
        });
      }
      return () => {
        if (!callbacks.delete(callback) || callbacks.size > 0) return;
        stopWatch();
        writeRecord();
      };
    },
    wanted,
  };
}
