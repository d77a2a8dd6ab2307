import { BadParameterError } from '@gflow/errors';
import { resolveProfile } from '../home/profiles.js';
import type { OperationContext } from '../runtime/operationContext.js';

/** What a run asks for: a profile (`default` resolves as everywhere), or a fleet's pool, and its kind of work. */
export interface ProfileAsk {
  readonly profile?: string | undefined;
  readonly profile_pool?: string | undefined;
  readonly kind: 'image' | 'video';
}

/**
 * The profile a new run or generation goes to, and the pool it was routed through. On one
 * machine: the local profile (resolveProfile: it must exist in this home), and a pool is refused
 * (pools are a fleet's). On a fleet: the fleet decides (a pool is routed now; a named profile must
 * be one a worker holds); the profiles live on the workers, so nothing local is looked at.
 */
export async function runProfileOf(
  context: OperationContext,
  ask: ProfileAsk,
): Promise<{ readonly profile: string; readonly pool?: string }> {
  const { runtime } = context;
  const pool = ask.profile_pool;
  if (runtime.fleet === undefined) {
    if (pool !== undefined)
      throw new BadParameterError(
        'profile_pool needs a fleet (GFLOW_FLEET_URL, --fleet URL): pools are its profiles.',
        {
          extensions: { parameter: 'profile_pool' },
          remediationHint: 'Name a profile of this machine instead, or run against the fleet (docs/FLEET.md).',
        },
      );
    return { profile: resolveProfile(runtime.layout, { requested: ask.profile, settings: runtime.settings }).name };
  }
  const named = ask.profile !== undefined && ask.profile !== 'default' ? ask.profile : undefined;
  const requested = named ?? (pool === undefined ? runtime.settings.profile : undefined);
  const profile = await runtime.fleet.profileFor({ requested, pool, kind: ask.kind });
  return pool === undefined ? { profile } : { profile, pool };
}

/** The profile a resumed run is looked up under (a fleet's run may have moved to another profile of its pool: any). */
export async function resumedProfile(
  context: OperationContext,
  requested: string | undefined,
): Promise<string | undefined> {
  if (context.runtime.fleet !== undefined)
    return requested !== undefined && requested !== 'default' ? requested : undefined;
  return resolveProfile(context.runtime.layout, { requested, settings: context.runtime.settings }).name;
}
