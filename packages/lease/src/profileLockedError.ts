import os from 'node:os';
import { ProfileLockedError } from '@gflow/errors';
import type { LeaseHolder } from './holderRecord.js';

export interface ProfileLockedDetails {
  readonly profileName: string;
  readonly waitSeconds: number;
  /** Who holds it, from the diagnostic record; undefined when unknown. */
  readonly holder: LeaseHolder | undefined;
}

/** ProfileLockedError (exit 11) for a profile another process holds, naming the holder when known. */
export function profileLockedError(details: ProfileLockedDetails): ProfileLockedError {
  const { profileName, holder, waitSeconds } = details;
  const who = holder === undefined ? 'another process' : `another process (${describeHolder(holder)})`;
  const waited = waitSeconds > 0 ? `; still locked after waiting ${waitSeconds} s` : '';
  return new ProfileLockedError(`Profile "${profileName}" is in use by ${who}${waited}.`, {
    extensions: {
      profile: profileName,
      wait_seconds: waitSeconds,
      ...(holder === undefined ? {} : { holder_pid: holder.pid, held_since: holder.acquiredAt }),
    },
  });
}

/** ProfileLockedError for a second acquire inside the process that already holds the profile. */
export function sameProcessLockedError(profileName: string, acquiredAt: Date | undefined): ProfileLockedError {
  const state = acquiredAt === undefined ? 'is already being acquired' : `is already held since ${acquiredAt.toISOString()}`;
  return new ProfileLockedError(
    `Profile "${profileName}" ${state} by this process (pid ${process.pid}); a second acquire fails at once instead of waiting for itself.`,
    {
      remediationHint: 'Run calls on one profile through the per-profile queue, one at a time, instead of leasing it twice.',
      extensions: { profile: profileName, holder_pid: process.pid, same_process: true },
    },
  );
}

function describeHolder(holder: LeaseHolder): string {
  const host = holder.hostname !== os.hostname() ? ` on ${holder.hostname}` : '';
  const profile = holder.profileName !== '' ? `, profile "${holder.profileName}"` : '';
  return `pid ${holder.pid}${host}${profile}, since ${holder.acquiredAt}`;
}
