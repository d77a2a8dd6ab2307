import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FleetTx } from '../connection.js';
import type { Dispatch } from '../queue/dispatch.js';
import { BACK_TO_PENDING, type TaskRow, toTaskRecord } from '../queue/taskRows.js';
import { type RoutingEntry, tasks } from '../schema/fleetTables.js';
import type { TaskRecord } from '../types.js';
import type { WorkKind, WorkerRegistry } from '../workers/workerRegistry.js';
import { pickProfile } from './pickProfile.js';

/** How a refused task of a pool moves on. */
export interface RerouteRequest {
  /** Why Flow refused (`insufficient-credits`, `waf-rejection`). */
  readonly reason: string;
  readonly kind: WorkKind;
  /** How long the refused profile is held back for this kind. */
  readonly holdMs: number;
  /** The payload as the next profile runs it (core knows its shape: the profile, a fresh project). */
  readonly rewrite: (payload: Record<string, unknown>, profile: string) => Record<string, unknown>;
}

/** A pool's task moved on: to `profile`, or nowhere (`undefined`) when no other profile of the pool can take it. */
export interface Rerouted {
  readonly profile: string | undefined;
  readonly record: TaskRecord;
}

/**
 * Moves a pool's task Flow refused on its profile to the next profile of its pool, inside the
 * caller's transaction (the row locked): the refused profile held back for that kind of work, the
 * row pending on the next profile with a fresh checkpoint and a new route attempt (the refused
 * attempt's steps stay as history, out of the new attempt), its job sent there. Nothing moves when a
 * step of the run completed, may have made something, or still runs: a run's project never spans
 * two accounts.
 */
export class Rerouter {
  constructor(
    private readonly registry: WorkerRegistry,
    private readonly dispatch: Dispatch,
  ) {}

  async move(tx: FleetTx, row: TaskRow, request: RerouteRequest): Promise<Rerouted> {
    const stay = { profile: undefined, record: toTaskRecord(row) };
    if (row.pool === null || (await this.#madeSomething(tx, row))) return stay;
    await this.registry.markRefused(row.profileName, request.kind, request.reason, request.holdMs);
    const tried = new Set([row.profileName, ...row.routing.map((r) => r.profile)]);
    const next = pickProfile(await this.registry.profiles(), row.pool, request.kind, tried);
    if (next === undefined) return stay;
    const entry: RoutingEntry = { profile: row.profileName, reason: request.reason, at: new Date().toISOString() };
    const [moved] = await tx
      .update(tasks)
      .set({
        profileName: next.profile,
        payload: request.rewrite(row.payload, next.profile),
        ...BACK_TO_PENDING,
        checkpoint: null,
        routeAttempt: row.routeAttempt + 1,
        routing: [...row.routing, entry],
        updatedAt: sql`clock_timestamp()`,
      })
      .where(eq(tasks.taskId, row.taskId))
      .returning();
    await this.dispatch.send(tx, next.profile, row.taskId);
    return { profile: next.profile, record: toTaskRecord(moved as TaskRow) };
  }

  async #madeSomething(tx: FleetTx, row: TaskRow): Promise<boolean> {
    const [made] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(
        and(
          eq(tasks.parentTaskId, row.taskId),
          eq(tasks.routeAttempt, row.routeAttempt),
          inArray(tasks.status, ['completed', 'working', 'indeterminate']),
        ),
      );
    return (made?.n ?? 0) > 0;
  }
}
