import { ConfigurationError } from '@gflow/errors';
import type pg from 'pg';
import { type FleetDb, openFleetDb } from './connection.js';
import { DEFAULT_TIMINGS, Dispatch, type DispatchTimings, createBoss } from './queue/dispatch.js';
import { guarded } from './queue/guarded.js';
import { type PgTaskQueue, pgTaskQueue } from './queue/pgTaskQueue.js';
import { toTaskRecord } from './queue/taskRows.js';
import { pickProfile } from './routing/pickProfile.js';
import { type RerouteRequest, type Rerouted, Rerouter } from './routing/rerouter.js';
import { migrateFleet } from './schema/migrateFleet.js';
import { SharedCatalog } from './shared/sharedCatalog.js';
import type { TaskRecord } from './types.js';
import { type FleetProfile, type WorkKind, WorkerRegistry } from './workers/workerRegistry.js';

export interface OpenFleetOptions {
  /** GFLOW_FLEET_URL: `postgres://user:password@host:port/database`. */
  readonly url: string;
  /** `worker`: serves profiles (pg-boss's supervisor and LISTEN run here); `client`: submits and reads. */
  readonly role: 'worker' | 'client';
  readonly timings?: Partial<DispatchTimings>;
  /** How often a worker says it is alive; a worker silent three times as long is taken for dead. */
  readonly heartbeatMs?: number;
  /** Connections per process (drizzle's pool and pg-boss's each). */
  readonly poolSize?: number;
  /** Where pg-boss's own warnings and errors go. */
  readonly onWarning?: (message: string) => void;
  /**
   * Which failures move a pool's task to the next profile of its pool (core's policy: Flow's
   * refusals about the account, and a payload not tied to the refused account). Without it nothing
   * moves by itself; `reroute` still can.
   */
  readonly refusals?: RefusalPolicy;
}

/** Whether a failed task of a pool moves on (how, for what kind of work), or undefined to let it fail. */
export type RefusalPolicy = (
  record: TaskRecord,
  problem: Readonly<Record<string, unknown>>,
) => RerouteRequest | undefined;

export type { RerouteRequest, Rerouted } from './routing/rerouter.js';

/** The fleet as one process sees it. */
export interface Fleet {
  readonly queue: PgTaskQueue;
  readonly registry: WorkerRegistry;
  readonly shared: SharedCatalog;
  readonly dispatch: Dispatch;
  readonly heartbeatMs: number;
  /** The profile of `pool` that takes the next run of this kind, or undefined when none can. */
  route(pool: string, kind: WorkKind, excluded?: ReadonlySet<string>): Promise<FleetProfile | undefined>;
  /** The profiles the fleet knows (for a named profile's check and `gflow doctor`). */
  profiles(): Promise<FleetProfile[]>;
  /**
   * Moves a pool's run that Flow refused on its profile to the next profile of its pool: the
   * refused profile held back, the row pending again on the next profile (a fresh checkpoint and a
   * new attempt, its refused steps kept as history), its job sent there — all in one transaction.
   * Refused (nothing moves) when the run is not a pool's, or a step of it completed: a run's project
   * is never split across accounts.
   */
  reroute(taskId: string, request: RerouteRequest): Promise<Rerouted>;
  close(): Promise<void>;
}

/**
 * Opens the fleet: the database (migrated once, under a lock), pg-boss (its own schema), the
 * queue port, the worker registry and the shared catalog. A refused URL is a ConfigurationError;
 * an unreachable database a DataStoreError (exit 16).
 */
export async function openFleet(options: OpenFleetOptions): Promise<Fleet> {
  if (!/^postgres(ql)?:\/\//.test(options.url))
    throw new ConfigurationError('GFLOW_FLEET_URL must be a postgres:// URL.', {
      extensions: { parameter: 'fleet' },
    });
  const timings = { ...DEFAULT_TIMINGS, ...options.timings };
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const size = options.poolSize ?? 4;
  const { pool, db } = openFleetDb(options.url, size);
  let boss: ReturnType<typeof createBoss> | undefined;
  try {
    await guarded(async () => {
      const client = await pool.connect();
      try {
        await migrateFleet(client);
      } finally {
        client.release();
      }
    });
    boss = createBoss(options.url, timings, size, options.role);
    boss.on('error', (error: Error) => options.onWarning?.(`pg-boss: ${error.message}`));
    const started = boss;
    await guarded(() => started.start());
  } catch (error) {
    await boss?.stop({ graceful: false }).catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw error;
  }
  return assemble(db, pool, boss, { timings, heartbeatMs, refusals: options.refusals });
}

function assemble(
  db: FleetDb,
  pool: pg.Pool,
  boss: ReturnType<typeof createBoss>,
  config: { timings: DispatchTimings; heartbeatMs: number; refusals: RefusalPolicy | undefined },
): Fleet {
  const dispatch = new Dispatch(boss, config.timings);
  // A worker is taken for dead no sooner than pg-boss would give its job back (its failover time).
  const registry = new WorkerRegistry(db, Math.max(config.heartbeatMs * 3, config.timings.heartbeatSeconds * 1000));
  const mover = new Rerouter(registry, dispatch);
  const policy = config.refusals;
  const queue = pgTaskQueue({
    db,
    dispatch,
    claimantAlive: (c) => registry.claimantAlive(c),
    ...(policy === undefined
      ? {}
      : {
          onFailed: async (tx, row, problem) => {
            const request = row.pool === null ? undefined : policy(toTaskRecord(row), problem);
            return request === undefined ? undefined : (await mover.move(tx, row, request)).record;
          },
        }),
  });
  const fleet: Fleet = {
    queue,
    registry,
    shared: new SharedCatalog(db),
    dispatch,
    heartbeatMs: config.heartbeatMs,
    profiles: () => registry.profiles(),
    route: async (pool, kind, excluded) => pickProfile(await registry.profiles(), pool, kind, excluded),
    reroute: (taskId, request) =>
      guarded(() =>
        db.transaction(async (tx) => {
          const row = await queue.lockedRow(tx, taskId);
          if (['pending', 'working', 'completed'].includes(row.status))
            return { profile: undefined, record: toTaskRecord(row) };
          return mover.move(tx, row, request);
        }),
      ),
    close: async () => {
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
  return fleet;
}
