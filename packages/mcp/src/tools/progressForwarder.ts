import type { ProgressEvent } from '@gflow/core';

/** Core's phases in the order a generation goes through them. */
const PHASES = [
  'queued',
  'waiting-for-profile',
  'starting-browser',
  'uploading',
  'configuring',
  'submitting',
  'submitted',
  'generating',
  'downloading',
  'recording',
  'done',
] as const;

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
    const index = PHASES.indexOf(event.phase as (typeof PHASES)[number]);
    const base = index < 0 ? Math.max(last, 0) : index;
    const fraction =
      event.progress !== undefined && event.total !== undefined && event.total > 0 ? Math.min(Math.max(event.progress / event.total, 0), 0.99) : 0;
    const progress = Math.round((base + fraction) * 100) / 100;
    if (progress <= last) return undefined;
    last = progress;
    return { progress, total: PHASES.length - 1, message: event.message ? `${event.phase}: ${event.message}` : event.phase };
  };
}
