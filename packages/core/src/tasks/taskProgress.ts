import type { TaskRecord } from '@gflow/catalog';
import { PROGRESS_PHASES, type ProgressEvent, type ProgressPhase } from '../runtime/progressPhases.js';

/**
 * The phases a row's checkpoint names that are not progress phases, as the progress phase they
 * stand at: a claimed or started row waits for its profile's browser next; the driver's `done` on
 * a row still working is Flow's part over, its files next (the task's own end is its result).
 */
const ROW_PHASES: Readonly<Record<string, ProgressPhase>> = {
  opening: 'starting-browser',
  claimed: 'waiting-for-profile',
  started: 'waiting-for-profile',
  done: 'generating',
};

/**
 * What a running task reports while it is followed (`waitTask`, a fleet's waited call): its status
 * and last phase as a progress event, in PROGRESS_PHASES order.
 */
export function progressOf(record: TaskRecord, elapsedMs: number): ProgressEvent {
  if (record.status === 'pending') return { phase: 'queued', elapsedMs };
  const raw = record.checkpoint?.phase ?? 'queued';
  const known = raw !== 'done' && (PROGRESS_PHASES as readonly string[]).includes(raw);
  if (known) return { phase: raw as ProgressPhase, elapsedMs };
  const phase = ROW_PHASES[raw] ?? 'starting-browser';
  return { phase, ...(raw === 'opening' ? {} : { message: raw === 'done' ? 'made in Flow' : raw }), elapsedMs };
}
