import type { TaskRecord } from '@gflow/catalog';
import { type ErrorCode, codeOfProblemType } from '@gflow/errors';

/**
 * Where a step of a run stands, read from its newest row (the state is written before each side
 * effect, so the row is the truth after any crash):
 * - planned: never reached its submit click — no row yet, pending, or ended before the click
 *   (nothing was sent): the only state a run (re)submits;
 * - running: its row is working (in this or another live process);
 * - done: completed (its files written);
 * - recoverable: it may have been submitted and did not complete for a reason that was not
 *   Flow's verdict (a kill, Ctrl-C, a lost reply, a timeout): recovered by its ids, never re-submitted;
 * - failed: Flow's verdict after the submit (a content refusal, a failed clip): it stays failed.
 */
export type StepState = 'planned' | 'running' | 'done' | 'recoverable' | 'failed';

/** Problem types that are Flow's answer about the generation itself: nothing to recover. */
const FLOW_VERDICTS: readonly ErrorCode[] = [
  'content-policy',
  'flow-app',
  'rate-limit',
  'waf-rejection',
  'insufficient-credits',
];

function verdictOf(row: TaskRecord): boolean {
  const type = row.error?.['type'];
  const code = typeof type === 'string' ? codeOfProblemType(type) : undefined;
  return code !== undefined && FLOW_VERDICTS.includes(code);
}

/** The newest row of each position of a run (older rows of a position are attempts that never reached their submit). */
export function currentSteps(rows: readonly TaskRecord[]): Map<number, TaskRecord> {
  const out = new Map<number, TaskRecord>();
  for (const row of rows) if (row.stepIndex !== null) out.set(row.stepIndex, row);
  return out;
}

export function stepState(row: TaskRecord | undefined): StepState {
  if (row === undefined || row.status === 'pending') return 'planned';
  if (row.status === 'working') return 'running';
  if (row.status === 'completed') return 'done';
  if (row.checkpoint?.may_have_spent !== true) return 'planned';
  return row.status === 'failed' && verdictOf(row) ? 'failed' : 'recoverable';
}
