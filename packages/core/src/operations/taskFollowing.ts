// What `task wait` knows about who answers for the task it follows (issue 38): a task whose owner
// is gone is never described as "running". A dead claimant's row is settled on the spot (queued
// again when it never reached its submit); a task nobody answers for is picked up when this
// process can (the CLI starts a worker, a server runs it) and said plainly when it cannot.
import type { TaskRecord } from '@gflow/catalog';
import { DaemonRecoveryError } from '@gflow/errors';
import { type TaskOwner, describeProcess, isBackgroundTask } from '../jobs/queueOwner.js';
import type { OperationContext } from '../runtime/operationContext.js';

/** The row as it is now, and a few words on who answers for it (undefined once it has settled). */
export interface Following {
  readonly record: TaskRecord;
  readonly who: string | undefined;
}

/** Who answers for it, as a clause: "it runs in gflow worker, pid 12", "gflow worker, pid 12 runs it after task …", … */
export function describeOwner(owner: TaskOwner): string | undefined {
  switch (owner.state) {
    case 'running':
      return `it runs in ${describeProcess(owner.by)}`;
    case 'queued':
      return `${describeProcess(owner.worker)} runs it${owner.worker.runningTaskId ? ` after task ${owner.worker.runningTaskId}` : ' next'}`;
    case 'handing-over':
      return `its worker is starting (${describeProcess(owner.by)})`;
    case 'none':
    case 'settled':
      return undefined;
  }
}

function ownerGone(record: TaskRecord, picksUp: boolean): DaemonRecoveryError {
  const id = record.taskId;
  const why = !isBackgroundTask(record.payload)
    ? 'it was queued by a call that waited for it, and that process is gone'
    : picksUp
      ? 'no worker could be started for it'
      : 'its worker had stopped, and this process does not start workers';
  return new DaemonRecoveryError(
    `Task ${id} is ${record.status}, and nobody runs it: ${why}. Nothing more was sent to Flow.`,
    {
      remediationHint: isBackgroundTask(record.payload)
        ? `Run 'gflow task wait ${id}' from the gflow CLI (it starts a worker for the profile), or cancel it with 'gflow task cancel ${id}'.`
        : `Cancel it with 'gflow task cancel ${id}' and run the command again.`,
      extensions: { task_id: id, task_status: record.status, profile: record.profile },
    },
  );
}

/**
 * Makes sure someone answers for a task that is not settled: when nobody does, the runtime's
 * queue keeper settles dead claims (a row that never reached its submit is queued again, one that
 * may have spent is `indeterminate`) and picks up the stranded task. Throws, naming what to do,
 * when it stays nobody's.
 */
export async function followTask(context: OperationContext, record: TaskRecord): Promise<Following> {
  // A fleet has no keeper here: its workers and pg-boss answer for its rows (docs/FLEET.md).
  const keeper = context.runtime.keeper;
  if (!keeper) return { record, who: undefined };
  let owner = await keeper.ownerOf(record);
  if (owner.state !== 'none') return { record, who: describeOwner(owner) };
  await keeper.pickUp(record.profile);
  const now = (await context.runtime.queue.get(record.taskId)) ?? record;
  if (now.status !== 'pending' && now.status !== 'working') return { record: now, who: undefined };
  owner = await keeper.ownerOf(now);
  if (owner.state === 'none') throw ownerGone(now, keeper.picksUp);
  return { record: now, who: describeOwner(owner) };
}

/** `task wait --timeout` ran out: the task goes on, and the line says who runs it. */
export function stillOpenDetail(record: TaskRecord, seconds: number | undefined, who: string | undefined): string {
  const after = `Task ${record.taskId} is still ${record.status} after ${seconds ?? 0} s`;
  return who ? `${after}; ${who}.` : `${after}.`;
}
