import { DaemonRecoveryError, toProblem } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import type { ClaimantLiveness, SettleResult, TaskCheckpoint } from './taskTypes.js';

function predicateOf(liveness: ClaimantLiveness): (claimant: string) => boolean {
  if ('isAlive' in liveness) return liveness.isAlive;
  const live = new Set(liveness.liveClaimants);
  return (claimant) => live.has(claimant);
}

function mayHaveSpent(checkpointJson: string | null): boolean {
  if (checkpointJson === null) return false;
  try {
    return (JSON.parse(checkpointJson) as Partial<TaskCheckpoint>).may_have_spent === true;
  } catch {
    // An unreadable checkpoint cannot prove nothing was spent.
    return true;
  }
}

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

/** The error of a row whose process died: after the submit, it names where credits may have gone. */
function abandonedError(spent: boolean, checkpointJson: string | null): DaemonRecoveryError {
  if (!spent)
    return new DaemonRecoveryError(
      'The process running this task exited before anything was submitted; no credits were spent.',
      { retryable: true },
    );
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
 * Settles `working` rows whose claimant is dead, in one BEGIN IMMEDIATE
 * transaction. Each update re-checks status and claimant, so a row a live
 * process just finished is left alone.
 */
export function settleAbandonedTasks(ctx: CatalogContext, liveness: ClaimantLiveness): SettleResult {
  const isAlive = predicateOf(liveness);
  const working = ctx.db.prepare(
    `SELECT task_id AS taskId, claimant, checkpoint_json AS checkpointJson FROM generation_queue WHERE status = 'working'`,
  );
  const update = ctx.db.prepare(
    `UPDATE generation_queue SET status = ?, error_json = ?, updated_at = ?
     WHERE task_id = ? AND status = 'working' AND claimant IS ?`,
  );
  return ctx.write(() => {
    const indeterminate: string[] = [];
    const failed: string[] = [];
    const rows = working.all() as Array<{ taskId: string; claimant: string | null; checkpointJson: string | null }>;
    for (const row of rows) {
      if (row.claimant !== null && isAlive(row.claimant)) continue;
      const spent = mayHaveSpent(row.checkpointJson);
      const error = abandonedError(spent, row.checkpointJson);
      const problem = { ...toProblem(error), exit_code: error.exitCode };
      update.run(spent ? 'indeterminate' : 'failed', JSON.stringify(problem), ctx.now(), row.taskId, row.claimant);
      (spent ? indeterminate : failed).push(row.taskId);
    }
    return { indeterminate, failed };
  });
}
