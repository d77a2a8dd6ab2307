import type { TaskQueue } from '@gflow/catalog';
import type { Fleet, OutputStore, SharedCatalog, WorkKind } from '@gflow/fleet';
import { loadOptionalPeer } from '../runtime/optionalPeer.js';
import type { Logger } from '../runtime/logger.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';

/**
 * What a runtime on a fleet (GFLOW_FLEET_URL) uses of it: the queue port's PostgreSQL backend, the
 * registry's profiles and routing, the shared catalog and the output store. Absent on one machine
 * (RuntimeServices.fleet is undefined): nothing of this loads then.
 */
export interface FleetLink {
  readonly queue: TaskQueue;
  readonly fleet: Fleet;
  readonly shared: SharedCatalog;
  /** The shared output location (GFLOW_CLI_OUTPUT_DIR, mounted at the same path on every machine). */
  readonly store: OutputStore;
  /** This process's id in the fleet's registry (its start token: what its claimant strings end with). */
  readonly workerId: string;
  /** The profile a new run goes to: the one named (a profile the fleet knows), or the pick of its pool. */
  profileFor(ask: { requested: string | undefined; pool: string | undefined; kind: WorkKind }): Promise<string>;
  /** The balance a profile's page showed at a submit (routing reads it); never fails the run. */
  noteBalance(profile: string, balance: number): void;
}

/** The fleet's timings from the settings (pg-boss's monitor runs ten times per failover period). */
export function fleetTimings(settings: ResolvedSettings): {
  heartbeatMs: number;
  timings: { heartbeatSeconds: number; monitorSeconds: number; pollSeconds: number };
} {
  const failover = settings.fleetFailoverSeconds ?? 30;
  const heartbeat = settings.fleetHeartbeatSeconds ?? 5;
  return {
    heartbeatMs: heartbeat * 1000,
    timings: {
      heartbeatSeconds: failover,
      monitorSeconds: Math.max(1, Math.floor(failover / 10)),
      pollSeconds: Math.min(5, Math.max(1, heartbeat)),
    },
  };
}

/** Opens the fleet for a runtime: @gflow/fleet (an optional peer of core) loaded on first need. */
export async function openFleetLink(
  settings: ResolvedSettings,
  options: { readonly role: 'worker' | 'client'; readonly workerId: string; readonly logger: Logger },
): Promise<FleetLink> {
  const module = await loadOptionalPeer('@gflow/fleet', 'A fleet (GFLOW_FLEET_URL)', () => import('@gflow/fleet'));
  const url = settings.fleetUrl as string;
  const [{ profileFor }, { refusalPolicy }] = await Promise.all([
    import('./fleetProfiles.js'),
    import('./fleetReroute.js'),
  ]);
  const fleet = await module.openFleet({
    url,
    role: options.role,
    ...fleetTimings(settings),
    onWarning: (message) => options.logger.warn(message),
    refusals: refusalPolicy,
  });
  return {
    queue: fleet.queue,
    fleet,
    shared: fleet.shared,
    store: new module.MountedOutputStore(settings.outputDir),
    workerId: options.workerId,
    profileFor: (ask) => profileFor(fleet, ask),
    noteBalance: (profile, balance) => {
      fleet.registry
        .noteBalance(profile, balance)
        .catch((error: unknown) =>
          options.logger.warn('the fleet could not note a balance', { profile, error: String(error) }),
        );
    },
  };
}
