import type { CatalogContext } from '../context.js';
import {
  type AbandonedVerdict,
  abandonedProblemOf,
  abandonedRequeuedCheckpoint,
  abandonedVerdictOf,
} from './taskRules.js';
import type { ClaimantLiveness, SettleOptions, SettleResult, TaskCheckpoint, TaskPayload } from './taskTypes.js';

function predicateOf(liveness: ClaimantLiveness): (claimant: string) => boolean {
  if ('isAlive' in liveness) return liveness.isAlive;
  const live = new Set(liveness.liveClaimants);
  return (claimant) => live.has(claimant);
}

/** The checkpoint, or undefined when it is unreadable (which cannot prove nothing was spent). */
function checkpointOf(checkpointJson: string | null): Partial<TaskCheckpoint> | undefined {
  if (checkpointJson === null) return {};
  try {
    const value = JSON.parse(checkpointJson) as unknown;
    return typeof value === 'object' && value !== null ? (value as Partial<TaskCheckpoint>) : undefined;
  } catch {
    return undefined;
  }
}

function payloadOf(payloadJson: string): TaskPayload | undefined {
  try {
    return JSON.parse(payloadJson) as TaskPayload;
  } catch {
    return undefined;
  }
}

interface WorkingRow {
  readonly taskId: string;
  readonly claimant: string | null;
  readonly checkpointJson: string | null;
  readonly payloadJson: string;
  readonly cancelRequestedAt: string | null;
}

/**
 * Settles `working` rows whose claimant is dead, in one BEGIN IMMEDIATE transaction (what each
 * becomes is the queue's rule, `abandonedVerdictOf`). Each update re-checks status and claimant,
 * so a row a live process just finished is left alone. A requeued row is `pending` again with no
 * claimant, its checkpoint kept (phase `requeued`, `requeues` counted), so the next worker of its
 * profile takes it.
 */
export function settleAbandonedTasks(
  ctx: CatalogContext,
  liveness: ClaimantLiveness,
  options: SettleOptions = {},
): SettleResult {
  const isAlive = predicateOf(liveness);
  const working = ctx.db.prepare(
    `SELECT task_id AS taskId, claimant, checkpoint_json AS checkpointJson, payload_json AS payloadJson,
       cancel_requested_at AS cancelRequestedAt FROM generation_queue WHERE status = 'working'`,
  );
  const settle = ctx.db.prepare(
    `UPDATE generation_queue SET status = ?, error_json = ?, updated_at = ?
     WHERE task_id = ? AND status = 'working' AND claimant IS ?`,
  );
  const requeue = ctx.db.prepare(
    `UPDATE generation_queue SET status = 'pending', claimant = NULL, claimed_at = NULL, checkpoint_json = ?,
       error_json = NULL, updated_at = ? WHERE task_id = ? AND status = 'working' AND claimant IS ?`,
  );
  return ctx.write(() => {
    const result: Record<AbandonedVerdict, string[]> = { indeterminate: [], failed: [], cancelled: [], requeued: [] };
    for (const row of working.all() as WorkingRow[]) {
      if (row.claimant !== null && isAlive(row.claimant)) continue;
      const checkpoint = checkpointOf(row.checkpointJson);
      const abandoned = {
        checkpoint,
        payload: payloadOf(row.payloadJson),
        cancelRequested: row.cancelRequestedAt !== null,
        resumed: options.resume === row.taskId,
      };
      const { verdict, requeues } = abandonedVerdictOf(abandoned, options);
      if (verdict === 'requeued') {
        const next = abandonedRequeuedCheckpoint(checkpoint, requeues);
        requeue.run(JSON.stringify(next), ctx.now(), row.taskId, row.claimant);
      } else {
        const problem = abandonedProblemOf(verdict, requeues, checkpoint);
        const error = problem === null ? null : JSON.stringify(problem);
        settle.run(verdict, error, ctx.now(), row.taskId, row.claimant);
      }
      result[verdict].push(row.taskId);
    }
    return result;
  });
}
