import type { TaskRecord } from '@gflow/catalog';
import type { FlowSession } from '@gflow/driver';
import { DataIntegrityError, type GflowError, toErrorEnvelopeBody, toGflowError } from '@gflow/errors';
import { resolveProfile } from '../home/profiles.js';
import { withFlowSession } from '../runtime/flowSessions.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import { RunClock } from './clock.js';
import { type DriveContext, type Driven, driveGeneration } from './drive.js';
import { readFlowCheckRecord, rememberScratchProject } from '../health/flowCheckRecord.js';
import { verifyInputs } from './inputs.js';
import { operationInputOf } from './operationRecord.js';
import type { MediaRef } from './plan.js';
import { type RunFacts, RunProgress } from './progress.js';
import {
  type GenerationRequest,
  askedProject,
  askedProjectName,
  effectiveSettings,
  mediaKindOf,
  parseGenerationRequest,
} from './request.js';
import { completedEnvelope, saveResults } from './save.js';
import { catalogueNamedMedia, deadlineError, failureEnvelope, failureOf } from './settle.js';
import { SpendControl, budgetOfRequest, estimatedEnvelope } from './spend.js';
import type { GenerationResult } from './schemas.js';

export interface RunOptions {
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  /** How often the row is read for a cancel another process asked for (`cancel_requested_at`); default 500 ms. */
  readonly cancelPollMs?: number;
  /**
   * `signal` is this process stopping (a worker's or a server's queue), not a cancel of the task:
   * stopped before its submit, the task goes back to the queue (`tasks.release`) instead of ending
   * `cancelled`, for the next worker or server of its profile.
   */
  readonly releaseOnStop?: boolean;
}

/**
 * One generation run, from a claimed task row to its settled outcome, in short phases that read
 * and write the run's fields: start (verify the inputs, the operation row, the spend control) →
 * on the profile's session: drive (the driver configures, binds, submits, watches) → save (assets,
 * downloads, files) → settle (success or failure, in the catalog). The row is the run's truth for
 * every surface; failures are returned as envelopes, not thrown.
 */
class GenerationRun {
  readonly #taskId: string;
  readonly #claimant: string;
  readonly #settings: ResolvedSettings;
  readonly #clock: RunClock;
  readonly #progress: RunProgress;
  readonly #stop: { readonly signal: AbortSignal; readonly release: boolean };
  readonly facts: RunFacts;
  #operationId: number | undefined;
  #operationSucceeded = false;
  #spend: SpendControl | undefined;

  constructor(
    private readonly runtime: RuntimeServices,
    record: TaskRecord,
    private readonly request: GenerationRequest,
    options: RunOptions,
  ) {
    this.#taskId = record.taskId;
    this.#claimant = record.claimant ?? runtime.claimantFor(record.profile);
    this.#stop = { signal: options.signal, release: options.releaseOnStop === true };
    this.#settings = effectiveSettings(runtime.settings, request);
    this.facts = { projectId: askedProject(request) ?? null, mediaIds: [], phase: null, mayHaveSpent: false };
    this.#clock = new RunClock({
      signal: options.signal,
      timeoutSeconds: this.#settings.timeoutSeconds,
      cancelRequested: async () => (await runtime.queue.get(this.#taskId))?.cancelRequestedAt != null,
      cancelPollMs: options.cancelPollMs,
      onSilence: () => this.#progress.heartbeat(),
    });
    const task = { taskId: this.#taskId, claimant: this.#claimant };
    this.#progress = new RunProgress(runtime.queue, task, this.#clock, this.facts, options.onProgress);
  }

  get #profile(): string {
    return this.request.input.profile;
  }

  async execute(): Promise<GenerationResult> {
    try {
      this.#start();
      const profile = resolveProfile(this.runtime.layout, { requested: this.#profile });
      const use = {
        signal: this.#clock.signal,
        onProgress: this.#progress.tracked,
        facts: () => this.#incidentFacts(),
      };
      const result = await withFlowSession(this.runtime, profile, use, (session) => this.#onSession(session));
      return await this.#settleSuccess(result);
    } catch (thrown) {
      return await this.#settleFailure(thrown);
    } finally {
      this.#clock.stop();
    }
  }

  /** The inputs are still what the request resolved; the operation row and the spend control exist. */
  #start(): void {
    verifyInputs(this.request.inputs);
    const { catalog } = this.runtime;
    const { request } = this;
    this.#operationId = catalog.operations.start(
      operationInputOf(request, { taskId: this.#taskId, projectId: this.facts.projectId }),
    ).id;
    this.#linkInputs(this.#operationId);
    // The credit ledger (issue 24): the driver hands Flow's quote to spend.hook before the click.
    this.#spend = new SpendControl(this.runtime, {
      operationId: this.#operationId,
      profile: this.#profile,
      budget: budgetOfRequest(this.runtime.settings, request),
      dryRun: request.input.dry_run === true,
      signal: this.#clock.signal,
    });
    this.#progress.checkpoint({ phase: 'started', operation_id: this.#operationId });
  }

  /**
   * Records which catalogued media the run starts from (frames, references), so the gallery can
   * show what made a result and what was made from a media. Paths are not assets.
   */
  #linkInputs(operationId: number): void {
    const { catalog } = this.runtime;
    const { plan } = this.request;
    const link = (ref: MediaRef | undefined, role: 'input' | 'seed_start' | 'seed_end' | 'reference', at = 0) => {
      const asset = ref?.kind === 'media' ? catalog.assets.getByMediaId(this.#profile, ref.mediaId) : undefined;
      if (asset) catalog.assets.link(operationId, asset.id, role, at);
    };
    plan.references.forEach((ref, i) => link(ref, plan.kind === 'image' ? 'input' : 'reference', i));
    // An extension's lineage: the clip it continues.
    if (plan.kind === 'extend') link(plan.source, 'input');
    if (plan.kind === 'video') {
      link(plan.startFrame, 'seed_start');
      link(plan.endFrame, 'seed_end');
    }
  }

  /** On the profile's session: drive, then (unless a dry run stopped before the click) save. */
  async #onSession(session: FlowSession): Promise<GenerationResult> {
    const driven = await this.#drive(session);
    const { generated } = driven;
    const spend = this.#spend as SpendControl;
    if (generated.stopped !== undefined)
      return estimatedEnvelope(spend, {
        taskId: this.#taskId,
        mode: this.request.plan.mode,
        params: this.request.params,
        projectId: generated.projectId,
        arm: generated.arm,
        stopped: generated.stopped,
        uploads: generated.uploads,
        sandbox: this.runtime.browserOverrides.sandbox === true,
      });
    const done = await this.#save(session, driven);
    await spend.measure(session, mediaKindOf(this.request));
    return { ...done, ...spend.envelopeFields() };
  }

  /** GFLOW_CLI_TIMEOUT_SECONDS bounds every phase from here to the result (not the download). */
  async #drive(session: FlowSession): Promise<Driven> {
    this.#clock.startDeadline();
    const driven = await driveGeneration({
      catalog: this.runtime.catalog,
      session,
      request: this.request,
      profile: this.#profile,
      defaultProject: this.#settings.project,
      agentConfirm: this.#settings.agentConfirm,
      timeoutMs: this.#settings.timeoutSeconds * 1000,
      signal: this.#clock.bounded,
      onProgress: this.#progress.driver,
      beforeSubmit: (this.#spend as SpendControl).hook,
      scratch: this.#scratch(),
    });
    this.#clock.stopDeadline();
    if (this.#clock.deadlinePassed) throw deadlineError(this.#settings.timeoutSeconds, this.facts);
    this.facts.projectId = driven.generated.projectId;
    this.facts.mediaIds = driven.generated.items.map((i) => i.mediaId);
    return driven;
  }

  async #save(session: FlowSession, driven: Driven): Promise<GenerationResult> {
    const saved = await saveResults(
      {
        catalog: this.runtime.catalog,
        session,
        request: this.request,
        profile: this.#profile,
        operationId: this.#operationId as number,
        outputDir: this.#settings.outputDir,
        signal: this.#clock.signal,
        progress: this.#progress.tracked,
      },
      driven.generated,
    );
    return completedEnvelope(this.request, driven.generated, saved, {
      sandbox: this.runtime.browserOverrides.sandbox === true,
      referenceUploaded: driven.referenceUploaded,
    });
  }

  /** A dry run's scratch project (see DriveContext.scratch); none for a paid run. */
  #scratch(): DriveContext['scratch'] {
    if (this.request.input.dry_run !== true || askedProjectName(this.request) !== undefined) return undefined;
    const dir = resolveProfile(this.runtime.layout, { requested: this.#profile }).dir;
    return {
      projectId: readFlowCheckRecord(dir).scratch_project_id,
      remember: (projectId) => rememberScratchProject(dir, projectId),
    };
  }

  #incidentFacts() {
    const { phase, mayHaveSpent } = this.facts;
    return { operation: this.request.command, taskId: this.#taskId, phase, mayHaveSpent };
  }

  async #settleSuccess(result: GenerationResult): Promise<GenerationResult> {
    const { catalog, queue } = this.runtime;
    if (this.#operationId !== undefined)
      catalog.operations.succeed(this.#operationId, { flowProjectId: this.facts.projectId });
    // A task row the queue then refuses (settled by another, the fleet's database gone) fails the
    // call with that refusal; the operation stays what it was: its media were made and saved.
    this.#operationSucceeded = true;
    await this.#progress.settled();
    await queue.complete(this.#taskId, this.#claimant, result, { flowMediaId: result.flow_media_id ?? null });
    this.#progress.say({ phase: 'done' });
    return result;
  }

  /**
   * This process stopped before the submit (its queue's signal, not a cancel of the task): the
   * task is queued again for whoever runs the profile's queue next. Undefined when it may not be
   * (queue.release: spent, a cancel asked for, released too often): it then settles as a cancel.
   */
  async #releaseOnStop(error: GflowError): Promise<GenerationResult | undefined> {
    if (!this.#stop.release || !this.#stop.signal.aborted || this.facts.mayHaveSpent) return undefined;
    const { catalog, logger, queue } = this.runtime;
    await this.#progress.settled();
    const released = await queue.release(this.#taskId, this.#claimant);
    if (released === undefined) return undefined;
    if (this.#operationId !== undefined)
      catalog.operations.failWith(this.#operationId, error, { flowProjectId: this.facts.projectId });
    this.#spend?.settleFailure(error, false);
    logger.info('task queued again: this process stopped before its submit (nothing was spent)', {
      task_id: this.#taskId,
      requeues: released.checkpoint?.requeues,
    });
    return { status: 'pending', task_id: this.#taskId, task_type: released.taskType };
  }

  /** A cancellation settles `cancelled`, or `indeterminate` after the submit click; never `failed` then. */
  async #settleFailure(thrown: unknown): Promise<GenerationResult> {
    const { catalog, logger, queue } = this.runtime;
    const stop = {
      deadlinePassed: this.#clock.deadlinePassed,
      aborted: this.#clock.signal.aborted,
      timeoutSeconds: this.#settings.timeoutSeconds,
    };
    const error = failureOf(thrown, stop, this.facts);
    const released = await this.#releaseOnStop(error);
    if (released) return released;
    const operationId = this.#operationId;
    if (operationId !== undefined && !this.#operationSucceeded)
      catalog.operations.failWith(operationId, error, { flowProjectId: this.facts.projectId });
    this.#spend?.settleFailure(error, this.facts.mayHaveSpent);
    await this.#progress.settled();
    const settled = await queue.fail(this.#taskId, this.#claimant, error, {
      flowMediaId: this.facts.mediaIds[0] ?? null,
    });
    logger.warn('generation failed', { task_id: this.#taskId, code: error.code, status: settled.status });
    const { projectId, mediaIds } = this.facts;
    if (mediaIds.length > 0 && projectId)
      catalogueNamedMedia(catalog, logger, this.request, { profile: this.#profile, projectId, mediaIds, operationId });
    const status = settled.status === 'indeterminate' || settled.status === 'cancelled' ? settled.status : 'failed';
    return failureEnvelope(this.request, status, this.facts, error, this.#spend?.envelopeFields() ?? {});
  }
}

/** A row this gflow cannot read is settled `failed` with the refusal and never run. */
async function refuseUnreadable(
  runtime: RuntimeServices,
  record: TaskRecord,
  error: GflowError,
): Promise<GenerationResult> {
  const claimant = record.claimant ?? runtime.claimantFor(record.profile);
  await runtime.queue.fail(record.taskId, claimant, error);
  runtime.logger.warn('task refused: unreadable request', { task_id: record.taskId, code: error.code });
  return {
    status: 'failed',
    task_id: record.taskId,
    task_type: record.taskType,
    error: toErrorEnvelopeBody(error),
  };
}

/**
 * Runs a task this process has claimed (a wait=true call, a server's background, a worker's
 * claimNext): its row is parsed as a request like user input, then run. A cancel asked for
 * elsewhere (`cancel_requested_at`) aborts the run as this process's own signal would:
 * `cancelled` before the submit click, `indeterminate` after it.
 */
export async function runClaimedGeneration(
  runtime: RuntimeServices,
  record: TaskRecord,
  options: RunOptions,
): Promise<GenerationResult> {
  let request: GenerationRequest;
  try {
    request = parseGenerationRequest(record.payload, record.taskId);
  } catch (error) {
    return refuseUnreadable(runtime, record, toGflowError(error));
  }
  return new GenerationRun(runtime, record, request, options).execute();
}

/** Claims a task this process just queued and runs it. */
export async function claimAndRunGeneration(
  runtime: RuntimeServices,
  taskId: string,
  profile: string,
  options: RunOptions,
): Promise<GenerationResult> {
  const claimed = await runtime.queue.claim(taskId, runtime.claimantFor(profile));
  if (!claimed)
    throw new DataIntegrityError('Another process claimed this task first.', { extensions: { task_id: taskId } });
  return runClaimedGeneration(runtime, claimed, options);
}
