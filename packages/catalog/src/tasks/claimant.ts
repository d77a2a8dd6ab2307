import fs from 'node:fs';
import type { ClaimantParts } from './taskTypes.js';

/** `mcp:<profile>:<pid>:<startToken>`. */
export function formatClaimant(parts: ClaimantParts): string {
  return `${parts.surface}:${parts.profile}:${parts.pid}:${parts.startToken}`;
}

/** Parses a claimant written by {@link formatClaimant}; undefined for any other shape. */
export function parseClaimant(claimant: string): ClaimantParts | undefined {
  const m = /^([\w-]+):([\w.-]+):(\d+):([\w-]+)$/.exec(claimant);
  if (!m) return undefined;
  const [, surface, profile, pid, startToken] = m;
  if (surface === undefined || profile === undefined || pid === undefined || startToken === undefined) return undefined;
  return { surface, profile, pid: Number(pid), startToken };
}

/**
 * Linux: the process has exited but nobody has reaped it (state Z or X in /proc/<pid>/stat). A
 * detached worker whose parent exited is reparented to init, and a container's pid 1 does not
 * always reap: its dead worker would otherwise look alive to signal 0 forever.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state …`; comm may hold spaces and parentheses, so read after the last `)`.
    const state = stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

/**
 * A same-host liveness check for claimants: alive when the pid exists (signal 0
 * succeeds or is refused with EPERM) and is not a zombie (an exited process
 * nobody reaped). It cannot tell a reused pid from the original process; callers
 * that know their live start tokens should pass `liveClaimants` (or combine
 * both) to settleAbandoned instead.
 */
export function claimantPidIsAlive(claimant: string): boolean {
  const parts = parseClaimant(claimant);
  return parts !== undefined && processIsAlive(parts.pid);
}

/**
 * Whether a process of this host runs: the pid exists (signal 0 succeeds or is refused with
 * EPERM) and is not a zombie. It cannot tell a reused pid from the original process.
 */
export function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}
