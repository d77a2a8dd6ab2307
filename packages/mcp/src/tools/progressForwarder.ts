import { PROGRESS_PHASES, type ProgressEvent } from '@gflow/core';

export interface ProgressParams {
  readonly progress: number;
  readonly total: number;
  readonly message: string;
}

/**
 * Turns core progress events into MCP progress values that strictly increase,
 * as the spec requires: the phase gives the integer part (out of the number of
 * phases), a known fraction inside the phase the decimals. An event that
 * would not advance moves a thousandth within its phase; one of an earlier phase is dropped.
 */
/** Where a phase stands inside one step, 0 ≤ x < 1 (its position among the phases). */
function phaseShare(phase: ProgressEvent['phase']): number {
  const index = PROGRESS_PHASES.indexOf(phase);
  return Math.max(0, index) / PROGRESS_PHASES.length;
}

/**
 * A run's event on its own scale: steps done out of its steps, the step's phase the fraction
 * inside it (a run's `done` is its last step's end). Values never go back: a repeat moves a
 * thousandth on.
 */
function runProgress(event: ProgressEvent & { step: NonNullable<ProgressEvent['step']> }, last: number) {
  const { index, total } = event.step;
  const at = event.phase === 'done' ? index : index + phaseShare(event.phase);
  let progress = Math.round(Math.min(at, total) * 1000) / 1000;
  if (progress <= last) progress = Math.round((last + 0.001) * 1000) / 1000;
  if (progress > total) return undefined;
  return { progress, total, message: event.message ? `${event.phase}: ${event.message}` : event.phase };
}

export function progressMapper(): (event: ProgressEvent) => ProgressParams | undefined {
  let last = -1;
  return (event) => {
    if (event.step !== undefined) {
      const mapped = runProgress({ ...event, step: event.step }, last);
      if (mapped !== undefined) last = mapped.progress;
      return mapped;
    }
    // A phase outside core's list (a caller from plain JavaScript) keeps the last position.
    const index = PROGRESS_PHASES.indexOf(event.phase);
    const base = index < 0 ? Math.max(last, 0) : index;
    const fraction =
      event.progress !== undefined && event.total !== undefined && event.total > 0
        ? Math.min(Math.max(event.progress / event.total, 0), 0.99)
        : 0;
    let progress = Math.round((base + fraction) * 100) / 100;
    // Another event of the phase already reported (a heartbeat while Flow works, a repeated
    // fraction) still goes out, a thousandth further on, so a client that resets its timeout on
    // progress keeps hearing from a long phase; an earlier phase never does.
    if (progress <= last) progress = Math.round((last + 0.001) * 1000) / 1000;
    if (progress >= base + 1) return undefined;
    last = progress;
    return {
      progress,
      total: PROGRESS_PHASES.length - 1,
      message: event.message ? `${event.phase}: ${event.message}` : event.phase,
    };
  };
}
