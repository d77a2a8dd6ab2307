import type { TaskRecord } from '@gflow/catalog';
import { codeOfProblemType } from '@gflow/errors';

/**
 * Failures that mean the task could not be run at all, so it has no result of its own: the process
 * running it died (daemon-recovery), its row could not be read (queue-schema), its job crashed
 * on something unexpected (unknown). Every other failure is the job's own answer (a content-policy
 * refusal, an expired sign-in): the result a wait=true call would have returned.
 */
const FAILED_TO_RUN: ReadonlySet<string> = new Set(['daemon-recovery', 'queue-schema', 'unknown']);

/** Whether a `failed` row failed to run (see FAILED_TO_RUN) rather than ran and failed. */
export function failedToRun(record: TaskRecord): boolean {
  if (record.status !== 'failed' || !record.error) return false;
  const type = record.error['type'];
  return FAILED_TO_RUN.has(typeof type === 'string' ? (codeOfProblemType(type) ?? 'unknown') : 'unknown');
}
