import type { Catalog, CheckpointPatch } from '@gflow/catalog';
import type { DriverProgressEvent } from '@gflow/driver';
import { videoStatusWords } from '@gflow/flow-facts';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RunClock } from './clock.js';

/** The runtime's phases a job records in its row's checkpoint (the driver's are recorded as they come). */
const RECORDED_PHASES: ReadonlySet<string> = new Set([
  'waiting-for-profile',
  'starting-browser',
  'downloading',
  'recording',
]);

/** What a run knows of its work in Flow: where it stands, and what Flow has named. */
export interface RunFacts {
  projectId: string | null;
  mediaIds: string[];
  phase: string | null;
  /** True from the `submitting` report (before the click) on; never turns back. */
  mayHaveSpent: boolean;
}

/**
 * A run's voice: progress to the caller (with the time it has taken) in PROGRESS_PHASES order, the
 * phases a task waiter reads written to the row's checkpoint, the driver's reports — `submitting`
 * before the click, from which on credits may be spent — written before the run goes on, and the
 * heartbeat.
 */
export class RunProgress {
  #recorded: string | null = null;
  #last: ProgressEvent = { phase: 'queued' };

  constructor(
    private readonly catalog: Catalog,
    private readonly task: { readonly taskId: string; readonly claimant: string },
    private readonly clock: RunClock,
    readonly facts: RunFacts,
    private readonly listener: ((event: ProgressEvent) => void) | undefined,
  ) {}

  /** Tells the caller (and resets the heartbeat). */
  say(event: ProgressEvent): void {
    this.#last = event;
    this.clock.spoke();
    this.listener?.({ ...event, elapsedMs: this.clock.elapsedMs() });
  }

  /** Tells the caller and writes the phase to the checkpoint once, when a waiter should see it. */
  readonly tracked = (event: ProgressEvent): void => {
    if (RECORDED_PHASES.has(event.phase) && event.phase !== this.#recorded) this.checkpoint({ phase: event.phase });
    this.say(event);
  };

  /** The driver's report: the facts, the checkpoint (may_have_spent from `submitting` on), then the caller (all but its `done`). */
  readonly driver = (event: DriverProgressEvent): void => {
    const spending = event.mayHaveSpent || event.phase === 'submitting' || event.phase === 'submitted';
    if (event.projectId) this.facts.projectId = event.projectId;
    if (event.mediaIds?.length) this.facts.mediaIds = [...event.mediaIds];
    if (spending) this.facts.mayHaveSpent = true;
    this.facts.phase = event.phase;
    this.catalog.tasks.updateCheckpoint(this.task.taskId, this.task.claimant, {
      phase: event.phase,
      ...(spending ? { may_have_spent: true, submitting_at: new Date().toISOString() } : {}),
      ...(event.projectId ? { project_id: event.projectId } : {}),
      ...(event.mediaIds ? { media_ids: event.mediaIds } : {}),
      ...(event.workflowIds ? { workflow_ids: event.workflowIds } : {}),
    });
    this.#recorded = event.phase;
    // The driver's `done` is Flow's part over, not the run's: the files are saved next
    // (downloading, recording), and the run's own `done` ends it, once, last.
    if (event.phase === 'done') return;
    this.say({
      phase: event.phase === 'opening' ? 'starting-browser' : event.phase,
      ...(event.message ? { message: event.message } : {}),
      // Flow's status in words (a person reads "rendering in Flow", not "[2]").
      ...(event.status !== undefined ? { flowStatus: videoStatusWords(event.status) } : {}),
    });
  };

  /** Writes to the checkpoint; a row settled meanwhile (a cancel) is left to the run's own outcome. */
  checkpoint(patch: CheckpointPatch): void {
    if (patch.phase !== undefined) this.#recorded = patch.phase;
    try {
      this.catalog.tasks.updateCheckpoint(this.task.taskId, this.task.claimant, patch);
    } catch {
      // The row was settled meanwhile (a cancel); the run's own outcome says what happened.
    }
  }

  /** While nothing else is said: the last phase again with the time taken, and the row touched. */
  readonly heartbeat = (): void => {
    const seconds = Math.round(this.clock.elapsedMs() / 1000);
    const phase = this.#last.phase;
    this.say({ phase, message: `still ${phase.replace(/-/g, ' ')} (${seconds} s)` });
    this.checkpoint({ phase: this.facts.phase ?? this.#recorded ?? phase });
  };
}
