import { sql } from 'drizzle-orm';
import { type DrizzleTransactionLike, type Job, PgBoss, fromDrizzle } from 'pg-boss';

/**
 * Dispatch through pg-boss: which machine runs a top-level task (a single generation or a run).
 * One pg-boss queue per profile (`gflow.profile.<name>`); a worker works the queues of the profiles
 * it holds, so only a machine that has the profile's browser takes its tasks. The queue's policy is
 * `singleton` (one active job per profile across the fleet: a Flow account runs one run at a time,
 * as one machine's lease already says), with LISTEN/NOTIFY for millisecond dispatch and pg-boss's
 * job heartbeat for a worker that died: its job is retried elsewhere once the heartbeat lapses, and
 * the run resumes from its rows (steps that may have been submitted are recovered, never sent again).
 * The job carries only the task id: the row in `gflow.tasks` is the truth.
 */

/** What a job carries. */
export interface TaskJob {
  readonly task_id: string;
}

/** How the fleet's jobs time out and come back. */
export interface DispatchTimings {
  /** pg-boss's job heartbeat (≥ 10 s): a worker silent this long is taken for dead and its job retried. */
  readonly heartbeatSeconds: number;
  /** How often pg-boss's monitor looks for lapsed heartbeats (and its supervisor runs). */
  readonly monitorSeconds: number;
  /** The backstop poll when a NOTIFY is missed. */
  readonly pollSeconds: number;
}

export const DEFAULT_TIMINGS: DispatchTimings = { heartbeatSeconds: 30, monitorSeconds: 15, pollSeconds: 5 };

/** pg-boss's own schema in the fleet's database. */
export const BOSS_SCHEMA = 'gflow_boss';

/** The pg-boss queue of a profile (profile names are plain names: letters, digits, `.`, `_`, `-`). */
export function queueOf(profile: string): string {
  return `gflow.profile.${profile}`;
}

/** The profile of a queue name, or undefined for another queue. */
export function profileOfQueue(name: string): string | undefined {
  return name.startsWith('gflow.profile.') ? name.slice('gflow.profile.'.length) : undefined;
}

/**
 * pg-boss on the fleet's database. A worker runs its supervisor (the monitor that finds lapsed
 * heartbeats, maintenance) and listens for NOTIFY; a client (the front door, a CLI run) only sends
 * and reads, so it opens no listener and supervises nothing.
 */
export function createBoss(url: string, timings: DispatchTimings, max: number, role: 'worker' | 'client'): PgBoss {
  const worker = role === 'worker';
  return new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    max,
    application_name: 'gflow-fleet',
    useListenNotify: worker,
    supervise: worker,
    schedule: false,
    superviseIntervalSeconds: timings.monitorSeconds,
    monitorIntervalSeconds: timings.monitorSeconds,
    // Completed jobs are pg-boss's history only (the task row is gflow's): a day is enough.
    maintenanceIntervalSeconds: 3600,
  });
}

/** Sends and serves the fleet's jobs over one started pg-boss. */
export class Dispatch {
  readonly #boss: PgBoss;
  readonly #timings: DispatchTimings;
  readonly #queues = new Set<string>();

  constructor(boss: PgBoss, timings: DispatchTimings) {
    this.#boss = boss;
    this.#timings = timings;
  }

  /** Creates the profile's queue once (pg-boss's create is idempotent across processes). */
  async ensureQueue(profile: string): Promise<string> {
    const name = queueOf(profile);
    if (this.#queues.has(name)) return name;
    await this.#boss.createQueue(name, {
      policy: 'singleton',
      notify: true,
      heartbeatSeconds: this.#timings.heartbeatSeconds,
      // A run may take hours (a long chain); the heartbeat, not the expiry, finds a dead worker.
      expireInSeconds: 24 * 3600,
      // A worker that died (or threw) gives the run back: it resumes elsewhere, a few times, then stays failed.
      retryLimit: 5,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      deleteAfterSeconds: 24 * 3600,
    });
    this.#queues.add(name);
    return name;
  }

  /** Queues the task's job inside the caller's transaction: the row and its job commit together, or neither. */
  async send(tx: DrizzleTransactionLike, profile: string, taskId: string): Promise<void> {
    const name = await this.ensureQueue(profile);
    const job: TaskJob = { task_id: taskId };
    await this.#boss.send(name, job, { db: fromDrizzle(tx, sql) });
  }

  /**
   * Serves a profile's queue: `handler` runs each job's task, one at a time; pg-boss sends its
   * heartbeat meanwhile. A handler that returns completes the job; one that throws fails it (and
   * pg-boss retries it). Answers the worker id `stop` takes.
   */
  async serve(profile: string, handler: (taskId: string, signal: AbortSignal) => Promise<void>): Promise<string> {
    const name = await this.ensureQueue(profile);
    return this.#boss.work<TaskJob>(
      name,
      {
        localConcurrency: 1,
        pollingIntervalSeconds: this.#timings.pollSeconds,
        notifyPollingIntervalSeconds: this.#timings.pollSeconds,
      },
      async ([job]: Job<TaskJob>[]) => {
        if (job !== undefined) await handler(job.data.task_id, job.signal);
      },
    );
  }

  /** Stops serving a profile's queue; `wait` lets the running job finish first. */
  async stopServing(profile: string, wait: boolean): Promise<void> {
    await this.#boss.offWork(queueOf(profile), { wait });
  }

  /** How many jobs wait and run per profile queue (pg-boss's own counts), for sizing and the bench. */
  async backlog(): Promise<Record<string, { queued: number; active: number }>> {
    const queues = await this.#boss.getQueues();
    const out: Record<string, { queued: number; active: number }> = {};
    for (const q of queues) {
      const profile = profileOfQueue(q.name);
      if (profile !== undefined) out[profile] = { queued: q.queuedCount ?? 0, active: q.activeCount ?? 0 };
    }
    return out;
  }
}
