import os from 'node:os';
import { ProfileLockedError } from '@gflow/errors';
import type { LeaseHolder } from './holderRecord.js';

export interface ProfileLockedDetails {
  readonly profileName: string;
  readonly waitSeconds: number;
  /** How long the acquire actually waited (a fail-fast acquire may have waited for an idle hand-off). */
  readonly waitedSeconds?: number;
  /** Who holds it, from the diagnostic record; undefined when unknown. */
  readonly holder: LeaseHolder | undefined;
}

/**
 * ProfileLockedError (exit 11) for a profile another process holds, naming the holder when known
 * and what it is doing: "busy with <what> since <when>" for a genuinely busy profile, "idle since
 * <when>" for a warm session (which, when it hands off, should have given way).
 */
export function profileLockedError(details: ProfileLockedDetails): ProfileLockedError {
  const { profileName, holder, waitSeconds } = details;
  const waitedSeconds = details.waitedSeconds ?? waitSeconds;
  const who = holder === undefined ? 'another process' : `another process (${describeHolder(holder)})`;
  const doing = holder === undefined ? '' : describeActivity(holder);
  let waited = '';
  if (waitSeconds > 0) waited = `; still locked after waiting ${waitSeconds} s`;
  else if (waitedSeconds >= 0.05) waited = `; it did not hand the profile over within ${formatSeconds(waitedSeconds)}`;
  return new ProfileLockedError(`Profile "${profileName}" is in use by ${who}${doing}${waited}.`, {
    extensions: {
      profile: profileName,
      wait_seconds: waitSeconds,
      ...(holder === undefined ? {} : { holder_pid: holder.pid, held_since: holder.acquiredAt }),
      ...(holder?.surface === undefined ? {} : { holder_surface: holder.surface }),
      ...(holder?.activity === undefined ? {} : { holder_activity: holder.activity }),
      ...(holder?.doing === undefined ? {} : { holder_doing: holder.doing }),
    },
  });
}

/** ProfileLockedError for a second acquire inside the process that already holds the profile. */
export function sameProcessLockedError(profileName: string, acquiredAt: Date | undefined): ProfileLockedError {
  const state =
    acquiredAt === undefined ? 'is already being acquired' : `is already held since ${acquiredAt.toISOString()}`;
  return new ProfileLockedError(
    `Profile "${profileName}" ${state} by this process (pid ${process.pid}); a second acquire fails at once instead of waiting for itself.`,
    {
      remediationHint:
        'Run calls on one profile through the per-profile queue, one at a time, instead of leasing it twice.',
      extensions: { profile: profileName, holder_pid: process.pid, same_process: true },
    },
  );
}

/** "gflow mcp run, pid 123, profile "default", since …, busy with … since …": who holds a lease and what it does. */
export function describeLeaseHolder(holder: LeaseHolder): string {
  return `${describeHolder(holder)}${describeActivity(holder)}`;
}

function describeHolder(holder: LeaseHolder): string {
  const surface = holder.surface !== undefined && holder.surface !== '' ? `gflow ${holder.surface}, ` : '';
  const host = holder.hostname !== os.hostname() ? ` on ${holder.hostname}` : '';
  const profile = holder.profileName !== '' ? `, profile "${holder.profileName}"` : '';
  return `${surface}pid ${holder.pid}${host}${profile}, since ${holder.acquiredAt}`;
}

function describeActivity(holder: LeaseHolder): string {
  const since = holder.activitySince === undefined ? '' : ` since ${holder.activitySince}`;
  if (holder.activity === 'busy') return `, busy with ${holder.doing ?? 'a job'}${since}`;
  if (holder.activity === 'idle') return `, idle (a warm browser kept for its next call)${since}`;
  return '';
}

function formatSeconds(seconds: number): string {
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
