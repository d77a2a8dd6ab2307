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
 * A same-host liveness check for claimants: alive when the pid exists (signal 0
 * succeeds or is refused with EPERM). It cannot tell a reused pid from the
 * original process; callers that know their live start tokens should pass
 * `liveClaimants` (or combine both) to settleAbandoned instead.
 */
export function claimantPidIsAlive(claimant: string): boolean {
  const parts = parseClaimant(claimant);
  if (parts === undefined) return false;
  try {
    process.kill(parts.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
