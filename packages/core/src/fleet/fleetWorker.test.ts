// Which dead worker's rows a live worker's heartbeat settles: only those of profiles no live
// worker holds. A profile another worker holds gets its run back through pg-boss and resumes it
// there (takeFleetTask); settling it first would show a caller following it an `indeterminate`
// end the run does not have. Stubs stand in for the queue and the registry (a unit); the fleet
// journey kills a worker mid-run for real.
import type { ClaimantLiveness, TaskRecord } from '@gflow/catalog';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import type { FleetLink } from './fleetLink.js';
import { settleDeadWorkers } from './fleetWorker.js';

const row = (profile: string, claimant: string): TaskRecord =>
  ({ taskId: `task-${profile}`, profile, status: 'working', claimant }) as unknown as TaskRecord;

function setUp(rows: TaskRecord[], dead: string[], served: Record<string, boolean>) {
  let asked: { isAlive: (claimant: string) => boolean } | undefined;
  const settleAbandoned = vi.fn(async (liveness: ClaimantLiveness) => {
    if ('isAlive' in liveness) asked = liveness;
    return { indeterminate: [], failed: [] };
  });
  const runtime = {
    queue: {
      list: async () => ({ items: rows }),
      claimantAlive: async (claimant: string) => !dead.includes(claimant),
      settleAbandoned,
    },
  } as unknown as RuntimeServices;
  const link = {
    fleet: {
      registry: {
        profiles: async () => Object.entries(served).map(([profile, live]) => ({ profile, live })),
      },
    },
  } as unknown as FleetLink;
  return { runtime, link, settleAbandoned, liveness: () => asked as { isAlive: (claimant: string) => boolean } };
}

describe('settleDeadWorkers', () => {
  it('settles a dead worker’s rows whose profile no live worker holds, and leaves those another worker will resume', async () => {
    const lone = 'worker:solo:11:dead1';
    const shared = 'worker:twin:12:dead1';
    const live = 'worker:p2:13:live1';
    const t = setUp([row('solo', lone), row('twin', shared), row('p2', live)], [lone, shared], {
      solo: false,
      twin: true,
      p2: true,
    });
    await settleDeadWorkers(t.runtime, t.link);
    expect(t.settleAbandoned).toHaveBeenCalledTimes(1);
    const { isAlive } = t.liveness();
    expect([isAlive(lone), isAlive(shared), isAlive(live)]).toEqual([false, true, true]);
  });

  it('does nothing while every claimant is alive', async () => {
    const t = setUp([row('p2', 'worker:p2:13:live1')], [], { p2: true });
    await settleDeadWorkers(t.runtime, t.link);
    expect(t.settleAbandoned).not.toHaveBeenCalled();
  });
});
