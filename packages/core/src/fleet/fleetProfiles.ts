import { NoProfileError, UsageError } from '@gflow/errors';
import type { Fleet, FleetProfile, WorkKind } from '@gflow/fleet';

/** The fleet's profiles named in a refusal: what a user can pick from. */
function known(profiles: readonly FleetProfile[]): Record<string, unknown> {
  return {
    available_profiles: profiles.map((p) => p.profile),
    pools: [...new Set(profiles.flatMap((p) => p.pools))].sort(),
  };
}

/**
 * Where a run submitted to the fleet goes. A pool (`--profile-pool`) is routed now, to the
 * profile that can take this kind of work (pickProfile); a named profile must be one a worker of
 * the fleet holds (it waits in its queue while that worker is down). Nothing local is looked at:
 * the profiles live on the workers' machines.
 */
export async function profileFor(
  fleet: Fleet,
  ask: { requested: string | undefined; pool: string | undefined; kind: WorkKind },
): Promise<string> {
  if (ask.pool !== undefined && ask.requested !== undefined && ask.requested !== 'default')
    throw new UsageError('Name a profile or a profile pool, not both.', { extensions: { parameter: 'profile_pool' } });
  const profiles = await fleet.profiles();
  if (ask.pool !== undefined) {
    const picked = await fleet.route(ask.pool, ask.kind);
    if (picked !== undefined) return picked.profile;
    const members = profiles.filter((p) => p.pools.includes(ask.pool as string));
    throw new NoProfileError(
      members.length === 0
        ? `No worker of the fleet serves the profile pool "${ask.pool}".`
        : `No profile of the pool "${ask.pool}" can take ${ask.kind} work now (${members
            .map(
              (p) =>
                `${p.profile}: ${!p.live ? 'no live worker' : p.refused[ask.kind] ? `refused (${p.refusedReason ?? 'quota'})` : 'out of budget or credits'}`,
            )
            .join('; ')}).`,
      { extensions: { profile_pool: ask.pool, ...known(profiles) } },
    );
  }
  const name = ask.requested;
  if (name === undefined || name === 'default')
    throw new NoProfileError('On a fleet a run names its profile (--profile) or its pool (--profile-pool).', {
      extensions: known(profiles),
    });
  if (!profiles.some((p) => p.profile === name))
    throw new NoProfileError(`No worker of the fleet holds profile "${name}".`, { extensions: known(profiles) });
  return name;
}
