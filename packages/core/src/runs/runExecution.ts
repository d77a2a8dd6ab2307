import type { TaskRecord } from '@gflow/catalog';
import { CancelledError, type GflowError, toGflowError } from '@gflow/errors';
import { abortableSleep } from '@gflow/lease/limits';
import {
  type GenerationAsk,
  type GenerationRequest,
  type GenerationResult,
  queueGeneration,
  recoverGeneration,
  runClaimedGeneration,
} from '../generation/index.js';
import { resolveProfile } from '../home/profiles.js';
import type { OperationContext } from '../runtime/operationContext.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { takeTokenWaiting } from './rateLimit.js';
import { type RunRequest, stepCount } from './runRequest.js';
import { type StepState, currentSteps, stepState } from './steps.js';

/** What a run knows of its steps while it runs: their rows, what this execution made, its pauses. */
export interface RunSteps {
  /** The newest row of each position. */
  readonly rows: ReadonlyMap<number, TaskRecord>;
  /** Steps this execution completed (made or recovered). */
  readonly made: number;
  readonly pausesMs: readonly number[];
  /** The run ended before these positions (a stop, a cancel, fail-fast). */
  readonly stoppedAt: number | null;
  /** The project the run's steps go to (named, else the first step's). */
  readonly project: string | null;
  /** Steps refused before their row was written (a prompt tool that failed), by position. */
  readonly refused: ReadonlyMap<number, GenerationResult>;
}

/** What differs between runs (a batch, a chain): the steps' asks, when a failure stops the run, the envelope. */
export interface RunKind<R extends RunRequest, V> {
  /** The ask of step `index`, from what the steps before made. */
  askFor(request: R, index: number, steps: RunSteps, context: OperationContext): Promise<GenerationAsk>;
  /** Whether a step that did not complete stops the run (a chain always; a batch with fail_fast). */
  stopsAfterFailure(request: R): boolean;
  /** The run's envelope, settled or not. */
  view(request: R, steps: RunSteps, status: 'running' | 'settled'): V;
  /** Whether the envelope is a success (the row completes) or carries its first failure (the row fails). */
  succeeded(view: V): boolean;
  /** The first failure of the envelope, for the row's problem. */
  firstError(view: V): unknown;
  /**
   * After every step completed: local work on what they made (a story's stitch and timeline),
   * spending nothing; what it returns joins the envelope. A throw fails the run with its steps kept
   * (a resume runs only this again).
   */
  finish?(request: R, steps: RunSteps, context: OperationContext, record: TaskRecord): Promise<Partial<V>>;
  /** What progress calls a step ("item", "link"). */
  readonly stepWord: string;
}

export interface RunOptions {
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  readonly cancelPollMs?: number;
  /**
   * The user's explicit consent (resume's resubmit_unconfirmed): a step that may have been
   * submitted but whose project lists nothing it made is submitted again (it may spend twice).
   */
  readonly resubmitUnconfirmed?: boolean;
  /** `signal` is this process stopping, not a cancel: a run it stops goes back to the queue (generation RunOptions.releaseOnStop). */
  readonly releaseOnStop?: boolean;
}

/** A queued step's request (its row was written), not a refusal envelope. */
const isRequest = (value: GenerationRequest | GenerationResult): value is GenerationRequest =>
  typeof (value as { schema_version?: unknown }).schema_version === 'number';

/**
 * One execution of a run: its steps in order, each by its state — done ones skipped, a step that
 * may have been submitted recovered by its ids (never submitted again), a planned one queued as a
 * row of its own under the run and run — on one browser session for the profile, with the pause
 * between submits, a check for a cancel before each submit, and progress on one scale.
 */
export class RunExecution<R extends RunRequest, V> {
  readonly #rows = new Map<number, TaskRecord>();
  readonly #pauses: number[] = [];
  readonly #refused = new Map<number, GenerationResult>();
  #made = 0;
  #stoppedAt: number | null = null;
  #submitted = 0;
  readonly #total: number;

  constructor(
    private readonly runtime: RuntimeServices,
    private readonly record: TaskRecord,
    private readonly request: R,
    private readonly kind: RunKind<R, V>,
    private readonly options: RunOptions & { readonly claimant: string },
  ) {
    this.#total = stepCount(request);
  }

  get steps(): RunSteps {
    return {
      rows: this.#rows,
      made: this.#made,
      pausesMs: this.#pauses,
      stoppedAt: this.#stoppedAt,
      project: this.request.project ?? this.#firstProject(),
      refused: this.#refused,
    };
  }

  #firstProject(): string | null {
    for (const row of [...this.#rows.values()].sort((a, b) => (a.stepIndex ?? 0) - (b.stepIndex ?? 0))) {
      const project = (row.result as GenerationResult | null)?.flow_project_id ?? row.checkpoint?.project_id;
      if (typeof project === 'string' && project !== '') return project;
    }
    return null;
  }

  /** Runs every step on one session of the profile; returns the run's envelope. */
  async execute(): Promise<V> {
    for (const [index, row] of currentSteps(await this.runtime.queue.steps(this.record.taskId)))
      this.#rows.set(index, row);
    const profile = resolveProfile(this.runtime.layout, { requested: this.request.profile });
    const use = {
      signal: this.options.signal,
      onProgress: this.#say,
      activity: `${this.request.command} (run ${this.record.taskId})`,
    };
    await this.runtime.sessions.withSession(profile, use, async () => {
      for (let index = 0; index < this.#total && this.#stoppedAt === null; index += 1) await this.#step(index);
    });
    return this.kind.view(this.request, this.steps, 'settled');
  }

  /** One step by its state; a step that ends without its files may stop the run. */
  async #step(index: number): Promise<void> {
    const state: StepState = stepState(this.#rows.get(index));
    if (state === 'done') return;
    if (state === 'running') throw new CancelledError(`Step ${index + 1} of this run is running in another process.`);
    if (this.options.signal.aborted) return this.#stop(index);
    this.#say({ phase: 'queued', message: `${this.kind.stepWord} ${index + 1}/${this.#total}`, step: this.#at(index) });
    const result =
      state === 'failed'
        ? undefined
        : state === 'recoverable'
          ? await this.#recoverOrResubmit(index)
          : await this.#submit(index);
    await this.#refresh(index);
    if (result?.status === 'completed') this.#made += 1;
    else if (this.kind.stopsAfterFailure(this.request) || this.options.signal.aborted || this.#interrupted(index))
      this.#stop(index + 1);
  }

  /** A step that ended cancelled or indeterminate stops any run: the user or a kill asked it to. */
  #interrupted(index: number): boolean {
    const status = this.#rows.get(index)?.status;
    return status === 'cancelled' || status === 'indeterminate';
  }

  #stop(at: number): void {
    this.#stoppedAt = at;
  }

  async #refresh(index: number): Promise<void> {
    const rows = currentSteps(await this.runtime.queue.steps(this.record.taskId));
    const row = rows.get(index);
    if (row) this.#rows.set(index, row);
  }

  /** A recoverable step: recovered; or, when its project lists nothing it made and the user consented, submitted again. */
  async #recoverOrResubmit(index: number): Promise<GenerationResult | undefined> {
    const recovered = await this.#recover(index);
    const listed = this.#recoveryFailures.get(index)?.extensions['listed'];
    if (recovered !== undefined || this.options.resubmitUnconfirmed !== true) return recovered;
    if (listed !== 'none' && listed !== 'no-project') return undefined;
    this.runtime.logger.warn('resubmitting an unconfirmed step, as asked', { step: index });
    this.#recoveryFailures.delete(index);
    return this.#submit(index);
  }

  async #recover(index: number): Promise<GenerationResult | undefined> {
    const row = this.#rows.get(index) as TaskRecord;
    this.#say({
      phase: 'downloading',
      message: `recovering what was submitted before (${row.taskId})`,
      step: this.#at(index),
    });
    try {
      return await recoverGeneration(this.runtime, row, { ...this.options, onProgress: this.#stepVoice(index) });
    } catch (error) {
      this.runtime.logger.warn('a step could not be recovered', {
        task_id: row.taskId,
        error: toGflowError(error).detail,
      });
      this.#recoveryFailures.set(index, toGflowError(error));
      return undefined;
    }
  }

  /** Why a step could not be recovered (it stays as it was: never submitted again). */
  readonly #recoveryFailures = new Map<number, GflowError>();

  get recoveryFailures(): ReadonlyMap<number, GflowError> {
    return this.#recoveryFailures;
  }

  /** A planned step: the pause, a token where the surface limits spending, its row under the run, then its run. */
  async #submit(index: number): Promise<GenerationResult | undefined> {
    const context = this.#context();
    if (this.#submitted > 0) await this.#pause();
    if (SURFACE_POLICY[this.request.surface].rateLimit) await takeTokenWaiting(context);
    if (this.options.signal.aborted) return undefined;
    const claimed = await this.#claimedRow(index, context);
    if (claimed.refused !== undefined) return claimed.refused;
    this.#submitted += 1;
    const options = { signal: this.options.signal, onProgress: this.#stepVoice(index) };
    return runClaimedGeneration(this.runtime, claimed.row, options);
  }

  /** The step's row, claimed: its pending row, or a new one written from its ask (placed under the run). */
  async #claimedRow(
    index: number,
    context: OperationContext,
  ): Promise<{ row: TaskRecord; refused?: undefined } | { refused: GenerationResult }> {
    const existing = this.#rows.get(index);
    let taskId = existing?.status === 'pending' ? existing.taskId : undefined;
    if (taskId === undefined) {
      const ask = await this.kind.askFor(this.request, index, this.steps, context);
      const queued = await queueGeneration(ask, context, { parent: { taskId: this.record.taskId, stepIndex: index } });
      if (!isRequest(queued)) {
        this.#refused.set(index, queued);
        return { refused: queued };
      }
      taskId = queued.task_id;
    }
    const claimed = await this.runtime.queue.claim(taskId, this.options.claimant);
    if (claimed === null) throw new CancelledError(`Step ${index + 1} was taken by another process.`);
    this.#rows.set(index, claimed);
    return { row: claimed };
  }

  async #pause(): Promise<void> {
    const { min_ms: min, max_ms: max } = this.request.jitter;
    const started = Date.now();
    await abortableSleep(min + Math.random() * (max - min), this.options.signal, 'the pause between steps').catch(
      () => undefined,
    );
    this.#pauses.push(Date.now() - started);
  }

  /** The context a step's ask and a run's finish work in. */
  context(): OperationContext {
    return this.#context();
  }

  #context(): OperationContext {
    return { runtime: this.runtime, surface: this.request.surface, signal: this.options.signal, onProgress: this.#say };
  }

  #at(index: number): { index: number; total: number } {
    return { index, total: this.#total };
  }

  /** A step's events on the run's scale: its position, its word, and no `done` before the run's end. */
  #stepVoice(index: number): (event: ProgressEvent) => unknown {
    const label = `${this.kind.stepWord} ${index + 1}/${this.#total}`;
    return (event) => {
      // Answered to the step's voice, which the driver awaits before its click.
      const marked = event.phase === 'submitting' ? this.#markSpending() : undefined;
      this.#say({
        ...event,
        phase: event.phase === 'done' ? 'recording' : event.phase,
        message: `${label}: ${event.message ?? event.phase}`,
        step: this.#at(index),
      });
      return marked;
    };
  }

  /** A step reached its submit click: the run may have spent too (its own row says so, before the click). */
  #markSpending(): Promise<unknown> {
    return this.runtime.queue.updateCheckpoint(this.record.taskId, this.options.claimant, { may_have_spent: true });
  }

  readonly #say = (event: ProgressEvent): void => {
    this.options.onProgress?.(event);
  };
}
