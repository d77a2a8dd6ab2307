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
 * would not advance is dropped.
 */
export function progressMapper(): (event: ProgressEvent) => ProgressParams | undefined {
  let last = -1;
  return (event) => {
    // A phase outside core's list (a caller from plain JavaScript) keeps the last position.
    const index = PROGRESS_PHASES.indexOf(event.phase);
    const base = index < 0 ? Math.max(last, 0) : index;
    const fraction =
      event.progress !== undefined && event.total !== undefined && event.total > 0
        ? Math.min(Math.max(event.progress / event.total, 0), 0.99)
        : 0;
    const progress = Math.round((base + fraction) * 100) / 100;
    if (progress <= last) return undefined;
    last = progress;
    return {
      progress,
      total: PROGRESS_PHASES.length - 1,
      message: event.message ? `${event.phase}: ${event.message}` : event.phase,
    };
  };
}
