/** The longest a job goes without a progress event: a heartbeat repeats its phase within it. */
export const MAX_SILENCE_MS = 5_000;

/**
 * The phases of long work, in the order a generation goes through them: core reports them, MCP
 * turns the position into strictly increasing progress values, the CLI names each on its spinner.
 */
export const PROGRESS_PHASES = [
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

/** One of `PROGRESS_PHASES`: where a running operation is. */
export type ProgressPhase = (typeof PROGRESS_PHASES)[number];

/** A step of long work, for progress bars and MCP progress notifications. */
export interface ProgressEvent {
  readonly phase: ProgressPhase;
  readonly message?: string;
  /** 0..total when known. */
  readonly progress?: number;
  readonly total?: number;
  readonly elapsedMs?: number;
  /** Flow's status of the clip, in words ("rendering in Flow"), never its number. */
  readonly flowStatus?: string;
  /**
   * In a run of many steps: which step this event is about (0-based) and how many there are. A
   * run's progress is on one scale, steps done / steps; its `done` comes once, at the end.
   */
  readonly step?: { readonly index: number; readonly total: number };
}

/**
 * A run's listener that puts every event on the run's scale: an event that names no step (the
 * wait for the browser, the queue, a resume's first word) stands at the start of the first step.
 * `stepsOf` is read once, at the first event; an operation that runs no steps keeps its phases.
 */
export function onRunScale(
  listener: ((event: ProgressEvent) => void) | undefined,
  stepsOf: () => number | undefined,
): ((event: ProgressEvent) => void) | undefined {
  if (listener === undefined) return undefined;
  let total: number | undefined | null = null;
  return (event) => {
    if (total === null) total = stepsOf();
    listener(event.step !== undefined || total === undefined ? event : { ...event, step: { index: 0, total } });
  };
}
