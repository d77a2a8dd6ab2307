import { DaemonRecoveryError, toProblem } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import type { ClaimantLiveness, SettleOptions, SettleResult, TaskCheckpoint, TaskPayload } from './taskTypes.js';

/** How often a task whose process died before its submit is queued again before it is settled `failed`. */
export const DEFAULT_MAX_REQUEUES = 3;

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

type Verdict = 'indeterminate' | 'failed' | 'cancelled' | 'requeued';

/** What the checkpoint names in Flow (the project, the media), for the error a person reads. */
function namedInFlow(checkpointJson: string | null): { project: string | null; media: string[] } {
  try {
    const checkpoint = JSON.parse(checkpointJson ?? '{}') as Partial<TaskCheckpoint>;
    const media = Array.isArray(checkpoint.media_ids) ? checkpoint.media_ids.filter((m) => typeof m === 'string') : [];
    return { project: typeof checkpoint.project_id === 'string' ? checkpoint.project_id : null, media };
  } catch {
    return { project: null, media: [] };
  }
}

/**
 * What a dead claimant's row becomes. The submit click is the line: a checkpoint that says
 * may_have_spent (or cannot be read) is `indeterminate`, never run again. Before it nothing was
 * sent, so a stop someone asked for is `cancelled`, a task the caller asked to run in the
 * background (`requeue` says which) is queued again — up to `maxRequeues` times, in case the task
 * itself kills its process — and anything else (a waited call whose caller is gone) is `failed`.
 */
function verdictOf(row: WorkingRow, options: SettleOptions): { verdict: Verdict; requeues: number } {
  const checkpoint = checkpointOf(row.checkpointJson);
  const requeues = typeof checkpoint?.requeues === 'number' ? checkpoint.requeues : 0;
  if (checkpoint === undefined || checkpoint.may_have_spent === true) return { verdict: 'indeterminate', requeues };
  if (row.cancelRequestedAt !== null) return { verdict: 'cancelled', requeues };
  const payload = payloadOf(row.payloadJson);
  const mayRequeue = payload !== undefined && options.requeue?.(payload) === true;
  if (mayRequeue && requeues < (options.maxRequeues ?? DEFAULT_MAX_REQUEUES))
    return { verdict: 'requeued', requeues: requeues + 1 };
  return { verdict: 'failed', requeues };
}

function recoveryProblem(verdict: Verdict, requeues: number, checkpointJson: string | null): string | null {
  if (verdict === 'requeued' || verdict === 'cancelled') return null;
  const error = verdict === 'indeterminate' ? spentError(checkpointJson) : unspentError(requeues);
  return JSON.stringify({ ...toProblem(error), exit_code: error.exitCode });
}

function unspentError(requeues: number): DaemonRecoveryError {
  return new DaemonRecoveryError(
    `The process running this task exited before anything was submitted; no credits were spent${requeues > 0 ? ` (it had been queued again ${requeues} time${requeues === 1 ? '' : 's'} already)` : ''}.`,
    { retryable: true },
  );
}

/** After the submit: the error names where credits may have gone (the project, the media). */
function spentError(checkpointJson: string | null): DaemonRecoveryError {
  const { project, media } = namedInFlow(checkpointJson);
  const where = [
    project ? `Flow project ${project}` : 'the Flow project',
    ...(media.length ? [`media ${media.join(', ')}`] : []),
  ];
  return new DaemonRecoveryError(
    `The process running this task exited after the submit; credits may have been spent. Check ${where.join(', ')} before retrying.`,
    {
      retryable: false,
      extensions: {
        ...(project ? { flow_project_id: project } : {}),
        ...(media.length ? { flow_media_ids: media } : {}),
      },
    },
  );
}

/**
 * Settles `working` rows whose claimant is dead, in one BEGIN IMMEDIATE transaction (see
 * verdictOf). Each update re-checks status and claimant, so a row a live process just finished is
 * left alone. A requeued row is `pending` again with no claimant, its checkpoint kept (phase
 * `requeued`, `requeues` counted), so the next worker of its profile takes it.
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
    const result: Record<Verdict, string[]> = { indeterminate: [], failed: [], cancelled: [], requeued: [] };
    for (const row of working.all() as WorkingRow[]) {
      if (row.claimant !== null && isAlive(row.claimant)) continue;
      const { verdict, requeues } = verdictOf(row, options);
      if (verdict === 'requeued') {
        const checkpoint = { ...checkpointOf(row.checkpointJson), claimant: null, phase: 'requeued', requeues };
        requeue.run(JSON.stringify(checkpoint), ctx.now(), row.taskId, row.claimant);
      } else {
        const status = verdict === 'cancelled' ? 'cancelled' : verdict;
        settle.run(status, recoveryProblem(verdict, requeues, row.checkpointJson), ctx.now(), row.taskId, row.claimant);
      }
      result[verdict].push(row.taskId);
    }
    return result;
  });
}
