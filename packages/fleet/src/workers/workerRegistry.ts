import { parseClaimant } from '@gflow/catalog';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FleetDb } from '../connection.js';
import { guarded } from '../queue/guarded.js';
import { fleetProfiles, workers } from '../schema/fleetTables.js';

/** A profile a worker holds, with the pools it serves. */
export interface HeldProfile {
  readonly name: string;
  readonly pools: readonly string[];
}

/** A worker's credit facts about one of its profiles, from its own ledger (the catalog) and the last balance it read. */
export interface ProfileFacts {
  readonly creditsToday: number;
  readonly dailyBudget: number | null;
}

/** What routing may know of a profile, fleet-wide (one row per profile; a profile two workers hold is live when either is). */
export interface FleetProfile {
  readonly profile: string;
  readonly pools: readonly string[];
  readonly live: boolean;
  readonly workers: readonly string[];
  readonly lastBalance: number | null;
  readonly creditsToday: number;
  readonly dailyBudget: number | null;
  readonly imageRefusedUntil: Date | null;
  readonly videoRefusedUntil: Date | null;
  /** Held back for that kind of work now (by the database's clock: the fleet's one clock). */
  readonly refused: Readonly<Record<WorkKind, boolean>>;
  readonly refusedReason: string | null;
  /** Top-level tasks of this profile pending or working. */
  readonly openTasks: number;
}

export type WorkKind = 'image' | 'video';

/**
 * Who is in the fleet: each worker's row (its heartbeat) and the profiles it holds. A worker is
 * alive while its heartbeat is younger than `ttlMs` (three heartbeats by default) and it has not
 * said it stopped; a claimant names its worker by its start token. This is a registry, not a
 * queue: dispatch, locking and the job heartbeat that retries a dead worker's run are pg-boss's.
 */
export class WorkerRegistry {
  readonly #db: FleetDb;
  readonly #ttlMs: number;

  constructor(db: FleetDb, ttlMs: number) {
    this.#db = db;
    this.#ttlMs = ttlMs;
  }

  /** A worker comes (back) up: its row, and exactly the profiles it holds now. */
  register(worker: { id: string; host: string; pid: number; profiles: readonly HeldProfile[] }): Promise<void> {
    return guarded(() =>
      this.#db.transaction(async (tx) => {
        await tx
          .insert(workers)
          .values({ workerId: worker.id, host: worker.host, pid: worker.pid })
          .onConflictDoUpdate({
            target: workers.workerId,
            set: { lastSeenAt: sql`clock_timestamp()`, stoppedAt: null, host: worker.host, pid: worker.pid },
          });
        await tx.delete(fleetProfiles).where(eq(fleetProfiles.workerId, worker.id));
        for (const p of worker.profiles)
          await tx.insert(fleetProfiles).values({ profileName: p.name, workerId: worker.id, pools: [...p.pools] });
      }),
    );
  }

  /** The worker is still here; its profiles' credit facts as its ledger has them. */
  heartbeat(workerId: string, facts: ReadonlyMap<string, ProfileFacts> = new Map()): Promise<void> {
    return guarded(async () => {
      await this.#db
        .update(workers)
        .set({ lastSeenAt: sql`clock_timestamp()` })
        .where(eq(workers.workerId, workerId));
      for (const [profile, f] of facts)
        await this.#db
          .update(fleetProfiles)
          .set({ creditsToday: f.creditsToday, dailyBudget: f.dailyBudget })
          .where(and(eq(fleetProfiles.workerId, workerId), eq(fleetProfiles.profileName, profile)));
    });
  }

  /** The worker leaves (a clean stop): it is no longer alive, at once. */
  stopped(workerId: string): Promise<void> {
    return guarded(async () => {
      await this.#db
        .update(workers)
        .set({ stoppedAt: sql`clock_timestamp()` })
        .where(eq(workers.workerId, workerId));
    });
  }

  /** Whether a worker's heartbeat is fresh and it has not stopped. */
  alive(workerId: string): Promise<boolean> {
    return guarded(async () => {
      const fresh = sql`clock_timestamp() - make_interval(secs => ${this.#ttlMs / 1000})`;
      const [row] = await this.#db
        .select({ id: workers.workerId })
        .from(workers)
        .where(and(eq(workers.workerId, workerId), isNull(workers.stoppedAt), gt(workers.lastSeenAt, fresh)));
      return row !== undefined;
    });
  }

  /** Whether the worker a claimant string names (by its start token) is alive. */
  async claimantAlive(claimant: string): Promise<boolean> {
    const parts = parseClaimant(claimant);
    return parts === undefined ? false : this.alive(parts.startToken);
  }

  /** The balance Flow showed on a profile's page at its last submit (video routing reads it). */
  noteBalance(profile: string, balance: number): Promise<void> {
    return guarded(async () => {
      await this.#db
        .update(fleetProfiles)
        .set({ lastBalance: balance, balanceReadAt: sql`clock_timestamp()` })
        .where(eq(fleetProfiles.profileName, profile));
    });
  }

  /** Flow refused a profile for quota or unusual activity: held back for that kind of work for `forMs`. */
  markRefused(profile: string, kind: WorkKind, reason: string, forMs: number): Promise<void> {
    const until = sql`clock_timestamp() + make_interval(secs => ${forMs / 1000})`;
    return guarded(async () => {
      await this.#db
        .update(fleetProfiles)
        .set({
          ...(kind === 'image' ? { imageRefusedUntil: until } : { videoRefusedUntil: until }),
          refusedReason: reason,
        })
        .where(eq(fleetProfiles.profileName, profile));
    });
  }

  /** Every profile the fleet knows, merged over the workers that hold it, with its open tasks. */
  profiles(): Promise<FleetProfile[]> {
    return guarded(async () => {
      const ttl = this.#ttlMs / 1000;
      const { rows } = await this.#db.execute<Record<string, unknown>>(sql`
        SELECT p.profile_name AS profile,
          array_agg(DISTINCT pool) FILTER (WHERE pool IS NOT NULL) AS pools,
          array_agg(DISTINCT p.worker_id) AS workers,
          bool_or(w.stopped_at IS NULL AND w.last_seen_at > clock_timestamp() - make_interval(secs => ${ttl})) AS live,
          max(p.last_balance) AS last_balance, max(p.credits_today) AS credits_today, min(p.daily_budget) AS daily_budget,
          max(p.image_refused_until) AS image_refused_until, max(p.video_refused_until) AS video_refused_until,
          max(p.refused_reason) AS refused_reason,
          coalesce(max(p.image_refused_until) > clock_timestamp(), false) AS image_refused,
          coalesce(max(p.video_refused_until) > clock_timestamp(), false) AS video_refused,
          (SELECT count(*) FROM gflow.tasks t WHERE t.profile_name = p.profile_name AND t.parent_task_id IS NULL
             AND t.status IN ('pending', 'working'))::int AS open_tasks
        FROM gflow.fleet_profiles p JOIN gflow.workers w ON w.worker_id = p.worker_id
        LEFT JOIN LATERAL unnest(p.pools) AS pool ON true
        GROUP BY p.profile_name ORDER BY p.profile_name`);
      return rows.map(toFleetProfile);
    });
  }
}

const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toFleetProfile(row: Record<string, unknown>): FleetProfile {
  return {
    profile: String(row['profile']),
    pools: (row['pools'] as string[] | null) ?? [],
    workers: (row['workers'] as string[] | null) ?? [],
    live: row['live'] === true,
    lastBalance: numOrNull(row['last_balance']),
    creditsToday: Number(row['credits_today'] ?? 0),
    dailyBudget: numOrNull(row['daily_budget']),
    imageRefusedUntil: dateOrNull(row['image_refused_until']),
    videoRefusedUntil: dateOrNull(row['video_refused_until']),
    refused: { image: row['image_refused'] === true, video: row['video_refused'] === true },
    refusedReason: (row['refused_reason'] as string | null) ?? null,
    openTasks: Number(row['open_tasks'] ?? 0),
  };
}
