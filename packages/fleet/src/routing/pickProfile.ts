import type { FleetProfile, WorkKind } from '../workers/workerRegistry.js';

/**
 * Whether a profile can take a pool's work of this kind now: a live worker holds it, Flow has not
 * refused it for this kind lately (quota, unusual activity), its day's quoted credits are under its
 * daily budget (GFLOW_CLI_DAILY_CREDIT_BUDGET on its worker), and — for video, which spends credits
 * where images draw on a free quota — the last balance its page showed was not empty.
 */
export function canTake(p: FleetProfile, kind: WorkKind): boolean {
  if (!p.live || p.refused[kind]) return false;
  if (p.dailyBudget !== null && p.creditsToday >= p.dailyBudget) return false;
  return kind === 'image' || p.lastBalance === null || p.lastBalance > 0;
}

/**
 * The profile of a pool that takes the next run of this kind: among those that can take it (and
 * are not `excluded`: the ones that already refused this run), the least busy (fewest open
 * tasks), then for video the one with the most credits shown, then by name so the choice is
 * stable. Undefined when none can.
 */
export function pickProfile(
  candidates: readonly FleetProfile[],
  pool: string,
  kind: WorkKind,
  excluded: ReadonlySet<string> = new Set(),
): FleetProfile | undefined {
  const fit = candidates.filter((p) => p.pools.includes(pool) && !excluded.has(p.profile) && canTake(p, kind));
  return [...fit].sort(
    (a, b) =>
      a.openTasks - b.openTasks ||
      (kind === 'video' ? (b.lastBalance ?? -1) - (a.lastBalance ?? -1) : 0) ||
      a.profile.localeCompare(b.profile),
  )[0];
}
