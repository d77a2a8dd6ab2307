import type { CheckpointPatch, TaskQueue } from '@gflow/catalog';
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
 *
 * The checkpoint writes go to the queue one after another, in the order they were made (a fleet's
 * queue answers later than SQLite); the `submitting` write is the one the driver awaits before it
 * clicks, and it fails the click when the row is no longer this run's (another worker took it).
 */
export class RunProgress {
  #recorded: string | null = null;
  #last: ProgressEvent = { phase: 'queued' };
  /** The checkpoint writes made so far, in order (each waits for the one before). */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly queue: TaskQueue,
    private readonly task: { readonly taskId: string; readonly claimant: string },
    private readonly clock: RunClock,
    readonly facts: RunFacts,
    private readonly listener: ((event: ProgressEvent) => unknown) | undefined,
  ) {}

  /** Tells the caller (and resets the heartbeat); answers what the caller answered (a run's write before a step's click). */
  say(event: ProgressEvent): unknown {
    this.#last = event;
    this.clock.spoke();
    return this.listener?.({ ...event, elapsedMs: this.clock.elapsedMs() });
  }

  /** Tells the caller and writes the phase to the checkpoint once, when a waiter should see it. */
  readonly tracked = (event: ProgressEvent): void => {
    if (RECORDED_PHASES.has(event.phase) && event.phase !== this.#recorded) this.checkpoint({ phase: event.phase });
    this.say(event);
  };

  /**
   * The driver's report: the facts, the checkpoint (may_have_spent from `submitting` on), then the
   * caller (all but its `done`). Answers the write, which the driver awaits for `submitting` before
   * its click.
   */
  readonly driver = (event: DriverProgressEvent): Promise<void> => {
    const spending = event.mayHaveSpent || event.phase === 'submitting' || event.phase === 'submitted';
    if (event.projectId) this.facts.projectId = event.projectId;
    if (event.mediaIds?.length) this.facts.mediaIds = [...event.mediaIds];
    if (spending) this.facts.mayHaveSpent = true;
    this.facts.phase = event.phase;
    const written = this.#write({
      phase: event.phase,
      ...(spending ? { may_have_spent: true, submitting_at: new Date().toISOString() } : {}),
      ...(event.projectId ? { project_id: event.projectId } : {}),
      ...(event.mediaIds ? { media_ids: event.mediaIds } : {}),
      ...(event.workflowIds ? { workflow_ids: event.workflowIds } : {}),
    });
    this.#recorded = event.phase;
    // Only the submitting write stops anything (the driver awaits it before its click); another that
    // fails (the row settled meanwhile) is left to the run's own outcome, as a checkpoint's is.
    if (event.phase !== 'submitting') written.catch(() => undefined);
    // The driver's `done` is Flow's part over, not the run's: the files are saved next
    // (downloading, recording), and the run's own `done` ends it, once, last.
    if (event.phase === 'done') return written;
    const told = this.say({
      phase: event.phase === 'opening' ? 'starting-browser' : event.phase,
      ...(event.message ? { message: event.message } : {}),
      // Flow's status in words (a person reads "rendering in Flow", not "[2]").
      ...(event.status !== undefined ? { flowStatus: videoStatusWords(event.status) } : {}),
    });
    // Before the click both land: this row's may_have_spent and, for a step, its run's.
    return event.phase === 'submitting' ? Promise.all([written, told]).then(() => undefined) : written;
  };

  /** Queues one checkpoint write after the ones before; its own failure is its caller's (the driver's click). */
  #write(patch: CheckpointPatch): Promise<void> {
    const written = this.#writes.then(async () => {
      await this.queue.updateCheckpoint(this.task.taskId, this.task.claimant, patch);
    });
    this.#writes = written.catch(() => undefined);
    return written;
  }

  /** Writes to the checkpoint; a row settled meanwhile (a cancel) is left to the run's own outcome. */
  checkpoint(patch: CheckpointPatch): void {
    if (patch.phase !== undefined) this.#recorded = patch.phase;
    // The row was settled meanwhile (a cancel): the run's own outcome says what happened.
    this.#write(patch).catch(() => undefined);
  }

  /** Every checkpoint write made so far has landed (or failed): the row can be settled after them. */
  async settled(): Promise<void> {
    await this.#writes;
  }

  /** While nothing else is said: the last phase again with the time taken, and the row touched. */
  readonly heartbeat = (): void => {
    const seconds = Math.round(this.clock.elapsedMs() / 1000);
    const phase = this.#last.phase;
    this.say({ phase, message: `still ${phase.replace(/-/g, ' ')} (${seconds} s)` });
    this.checkpoint({ phase: this.facts.phase ?? this.#recorded ?? phase });
  };
}
