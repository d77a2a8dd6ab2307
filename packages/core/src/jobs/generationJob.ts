import path from 'node:path';
import type { Catalog, TaskRecord } from '@gflow/catalog';
import { videoModelOfKey } from '@gflow/flow-facts';
import type { FlowSession, DriverProgressEvent as DriverProgress } from '@gflow/driver';
import {
  CancelledError,
  DataIntegrityError,
  OutputWriteFailedError,
  TransportTimeoutError,
  hasErrorCode,
  isGflowError,
  toErrorEnvelopeBody,
  toGflowError,
} from '@gflow/errors';
import { resolveProfile } from '../home/profiles.js';
import { withIncidentCapture } from '../incidents/recordIncident.js';
import type { GenerationResult } from '../operations/generationSchemas.js';
import type { ImagePlan, MediaRef, VideoPlan } from '../operations/validateGeneration.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import { type GenerationTaskPayload, effectiveSettings, planOf } from './generationPayload.js';
import { type MediaKind, extensionOf, freeVariantOf, targetPathFor, writeMedia } from './mediaFiles.js';
import { type LocalReference, resolveGenerationInputs } from './references.js';
import { fellBackToUpload, placeReference, rememberUploads } from './placeReferences.js';
import { SpendControl, budgetOfTask, estimatedEnvelope, spendPayloadOf } from './spendControl.js';

export interface RunTaskOptions {
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  /** How often the row is read for a cancel another process asked for (`cancel_requested_at`); default 500 ms. */
  readonly cancelPollMs?: number;
}

type Generated = Awaited<ReturnType<FlowSession['generateImage']>>;

/** The runtime's phases a job records in its row's checkpoint (the driver's are recorded as they come). */
const RECORDED_PHASES: ReadonlySet<string> = new Set([
  'waiting-for-profile',
  'starting-browser',
  'downloading',
  'recording',
]);

/**
 * Runs one generation task end to end: claim the row, open (or reuse) the
 * profile's browser under its lease, attach references, let the driver click
 * submit and watch Flow's own replies, download and verify each file, write it
 * atomically and record everything in the catalog. Returns the envelope that
 * wait=true returns and tasks/get serves; failures are returned, not thrown.
 */
/** How long a job may say nothing before its heartbeat (a progress event and a touched task row). */
export const HEARTBEAT_MS = 5_000;
/** How often the silence is looked at: a heartbeat goes out at most this long after HEARTBEAT_MS. */
const HEARTBEAT_TICK_MS = 1_000;

export async function runGenerationTask(
  runtime: RuntimeServices,
  taskId: string,
  options: RunTaskOptions,
): Promise<GenerationResult> {
  const catalog = runtime.catalog;
  const record = catalog.tasks.get(taskId);
  if (!record)
    throw new DataIntegrityError('The task row vanished before it ran.', { extensions: { task_id: taskId } });
  const claimant = runtime.claimantFor(record.profile);
  const claimed = catalog.tasks.claim(taskId, claimant);
  if (!claimed)
    throw new DataIntegrityError('Another process claimed this task first.', { extensions: { task_id: taskId } });
  return runClaimedGenerationTask(runtime, claimed, options);
}

/**
 * Runs a task this process has claimed (runGenerationTask, or a worker's claimNext). The row is
 * the job's truth for every surface: its checkpoint follows the phases, and a cancel asked for
 * elsewhere (`cancel_requested_at`, set by `gflow task cancel` or another server's tasks/cancel)
 * aborts the job as this process's own signal would: `cancelled` before the submit click,
 * `indeterminate` after it.
 */
export async function runClaimedGenerationTask(
  runtime: RuntimeServices,
  claimed: TaskRecord,
  options: RunTaskOptions,
): Promise<GenerationResult> {
  const catalog = runtime.catalog;
  const taskId = claimed.taskId;
  const claimant = claimed.claimant ?? runtime.claimantFor(claimed.profile);
  const payload = claimed.payload as unknown as GenerationTaskPayload;
  const settings = effectiveSettings(runtime.settings, payload);
  const plan = planOf(payload);
  const started = Date.now();
  let lastEvent: { readonly event: ProgressEvent; readonly at: number } | null = null;
  const progress = (event: ProgressEvent): void => {
    lastEvent = { event, at: Date.now() };
    options.onProgress?.({ ...event, elapsedMs: Date.now() - started });
  };
  const known: { projectId: string | null; mediaIds: string[]; phase: string | null; mayHaveSpent: boolean } = {
    projectId: payload.input.project ?? null,
    mediaIds: [],
    phase: null,
    mayHaveSpent: false,
  };
  let operationId: number | undefined;
  let spend: SpendControl | undefined;
  let recorded: string | null = null;
  /** Progress that also lands in the checkpoint (what `gflow task wait` shows), once per phase. */
  const tracked = (event: ProgressEvent): void => {
    if (RECORDED_PHASES.has(event.phase) && event.phase !== recorded) {
      recorded = event.phase;
      try {
        catalog.tasks.updateCheckpoint(taskId, claimant, { phase: event.phase });
      } catch {
        // The row was settled meanwhile (a cancel); the job's own outcome says what happened.
      }
    }
    progress(event);
  };
  const cancelled = new AbortController();
  const signal = AbortSignal.any([options.signal, cancelled.signal]);
  // GFLOW_CLI_TIMEOUT_SECONDS bounds the whole generation once the browser session is ours (not the
  // wait for the profile's lease, nor the download): every phase, the ones before the submit too.
  const deadline = new AbortController();
  let deadlineTimer: NodeJS.Timeout | undefined;
  const startDeadline = (): void => {
    deadlineTimer = setTimeout(
      () => deadline.abort(new DOMException('The generation deadline passed.', 'TimeoutError')),
      settings.timeoutSeconds * 1000,
    );
    deadlineTimer.unref();
  };
  const watch = setInterval(() => {
    try {
      if (catalog.tasks.get(taskId)?.cancelRequestedAt)
        cancelled.abort(new DOMException('Cancelled by a task cancel request.', 'AbortError'));
    } catch {
      // A catalog that cannot be read now is read again at the next tick.
    }
  }, options.cancelPollMs ?? 500);
  watch.unref();
  // A heartbeat while nothing else is said (Flow generating, the profile's lease being waited
  // out): the last phase again with the time it has taken, and the task row touched, so a client
  // that resets its timeout on progress, and a reader of lastUpdatedAt, see the job alive.
  const heartbeat = setInterval(() => {
    const last = lastEvent;
    if (last === null || Date.now() - last.at < HEARTBEAT_MS || signal.aborted) return;
    const seconds = Math.round((Date.now() - started) / 1000);
    progress({ phase: last.event.phase, message: `still ${last.event.phase.replace(/-/g, ' ')} (${seconds} s)` });
    try {
      catalog.tasks.updateCheckpoint(taskId, claimant, { phase: known.phase ?? recorded ?? last.event.phase });
    } catch {
      // The row was settled meanwhile; the job's own outcome says what happened.
    }
  }, HEARTBEAT_TICK_MS);
  heartbeat.unref();

  try {
    const profile = resolveProfile(runtime.layout, { requested: claimed.profile });
    operationId = catalog.operations.start({
      profile: profile.name,
      command: payload.command,
      mode: plan.mode,
      prompt: payload.input.prompt,
      expandedPrompt: payload.expanded_prompt === payload.input.prompt ? null : payload.expanded_prompt,
      model: plan.model?.name ?? null,
      aspectRatio: plan.aspect,
      taskId,
      flowProjectId: known.projectId,
      surface: spendPayloadOf(payload).surface ?? null,
      metadata: { tools: payload.input.tools ?? [], entity_ids: plan.characters.map((c) => c.entityId) },
    }).id;
    linkInputs(catalog, operationId, plan, profile.name);
    // The credit ledger (issue 24): the driver hands Flow's quote to spend.hook before the click.
    spend = new SpendControl(runtime, {
      operationId,
      profile: profile.name,
      budget: budgetOfTask(runtime.settings, payload),
      dryRun: payload.input.dry_run === true,
      signal,
    });
    catalog.tasks.updateCheckpoint(taskId, claimant, { phase: 'started', operation_id: operationId });
    recorded = 'started';
    // The driver reports `submitting` before the click: from then on credits may be spent,
    // so the checkpoint says so before the click's outcome is known.
    const onDriverProgress = (event: DriverProgress): void => {
      if (event.projectId) known.projectId = event.projectId;
      if (event.mediaIds?.length) known.mediaIds = [...event.mediaIds];
      const spending = event.mayHaveSpent || event.phase === 'submitting' || event.phase === 'submitted';
      known.phase = event.phase;
      recorded = event.phase;
      if (spending) known.mayHaveSpent = true;
      catalog.tasks.updateCheckpoint(taskId, claimant, {
        phase: event.phase,
        ...(spending ? { may_have_spent: true } : {}),
        ...(event.projectId ? { project_id: event.projectId } : {}),
        ...(event.mediaIds ? { media_ids: event.mediaIds } : {}),
        ...(event.workflowIds ? { workflow_ids: event.workflowIds } : {}),
      });
      progress({
        phase: event.phase === 'opening' ? 'starting-browser' : event.phase,
        ...(event.message ? { message: event.message } : {}),
        ...(event.status !== undefined ? { flowStatus: String(event.status) } : {}),
      });
    };

    // A failure is photographed here, inside the callback: the session and its page still exist.
    const facts = () => ({ operation: payload.command, taskId, phase: known.phase, mayHaveSpent: known.mayHaveSpent });
    const result = await runtime.sessions.withSession(profile, { signal, onProgress: tracked }, (session) =>
      withIncidentCapture(runtime, session, facts, async () => {
        startDeadline();
        const bounded = AbortSignal.any([signal, deadline.signal]);
        const run: JobRun = { runtime, settings, session, plan, payload, profile: profile.name, signal: bounded };
        const generated = await generate(run, onDriverProgress, spend as SpendControl);
        clearTimeout(deadlineTimer);
        if (deadline.signal.aborted) throw deadlineError(settings.timeoutSeconds, known);
        known.projectId = generated.projectId;
        known.mediaIds = generated.items.map((i) => i.mediaId);
        if (generated.stopped !== undefined)
          return estimatedEnvelope(spend as SpendControl, {
            taskId,
            mode: plan.mode,
            params: payload.params,
            projectId: generated.projectId,
            arm: generated.arm,
            stopped: generated.stopped,
            uploads: generated.uploads,
            sandbox: runtime.browserOverrides.sandbox === true,
          });
        // The download is bounded by its own progress, not by the generation's deadline.
        const done = await recordAndDownload(
          { ...run, signal },
          { operationId: operationId as number, generated, progress: tracked },
        );
        await spend?.measure(session, plan.kind);
        return { ...done, ...spend?.envelopeFields() };
      }),
    );
    catalog.operations.succeed(operationId, { flowProjectId: known.projectId });
    catalog.tasks.complete(taskId, claimant, result, { flowMediaId: result.flow_media_id ?? null });
    progress({ phase: 'done' });
    return result;
  } catch (thrown) {
    // Past the deadline, whatever the driver was doing when its signal fired is a timeout.
    const raised =
      deadline.signal.aborted && !signal.aborted
        ? deadlineError(settings.timeoutSeconds, known, thrown)
        : toGflowError(thrown);
    // An aborted job is a cancellation whatever the driver saw last (the browser may close first).
    const stopped = hasErrorCode(raised, 'cancelled') || signal.aborted;
    const error =
      stopped && !hasErrorCode(raised, 'cancelled')
        ? new CancelledError(
            known.mayHaveSpent
              ? 'Cancelled after the submit: credits may have been spent.'
              : 'Cancelled before the submit; nothing was sent to Flow.',
            { cause: raised },
          )
        : raised;
    if (operationId !== undefined) catalog.operations.failWith(operationId, error, { flowProjectId: known.projectId });
    spend?.settleFailure(error, known.mayHaveSpent);
    // A cancellation is recorded with its problem: `cancelled`, or `indeterminate` after the submit click.
    const settled: TaskRecord = catalog.tasks.fail(taskId, claimant, error, {
      flowMediaId: known.mediaIds[0] ?? null,
    });
    runtime.logger.warn('generation failed', { task_id: taskId, code: error.code, status: settled.status });
    // Media Flow already named (the submit reply) are catalogued, so `data download` can fetch them
    // later by id; the job ended before their files were written.
    if (known.mediaIds.length > 0 && known.projectId)
      catalogueNamedMedia(runtime, plan, {
        profile: claimed.profile,
        projectId: known.projectId,
        mediaIds: known.mediaIds,
        operationId,
      });
    return {
      status:
        settled.status === 'indeterminate' ? 'indeterminate' : settled.status === 'cancelled' ? 'cancelled' : 'failed',
      task_id: taskId,
      task_type: claimed.taskType,
      ...(known.mediaIds[0] ? { flow_media_id: known.mediaIds[0], flow_media_ids: [...known.mediaIds] } : {}),
      ...(known.projectId ? { flow_project_id: known.projectId } : {}),
      ...spend?.envelopeFields(),
      error: toErrorEnvelopeBody(error, { flowProjectId: known.projectId }),
    };
  } finally {
    clearTimeout(deadlineTimer);
    clearInterval(watch);
    clearInterval(heartbeat);
  }
}

/**
 * A generation past GFLOW_CLI_TIMEOUT_SECONDS: before the submit nothing was sent (retryable);
 * after it credits may have been spent, so it is not, and the hint names what Flow already named.
 */
function deadlineError(
  seconds: number,
  known: { readonly phase: string | null; readonly mayHaveSpent: boolean; readonly mediaIds: readonly string[] },
  cause?: unknown,
): TransportTimeoutError {
  const where = known.phase ? ` (it stood in ${known.phase})` : '';
  if (!known.mayHaveSpent) {
    return new TransportTimeoutError(
      `The generation did not reach its submit within GFLOW_CLI_TIMEOUT_SECONDS (${seconds} s)${where}; nothing was sent to Flow.`,
      {
        cause,
        retryable: true,
        remediationHint:
          'Retry once; if it stops in the same phase again, raise GFLOW_CLI_TIMEOUT_SECONDS or run gflow doctor.',
        extensions: { timeout_seconds: seconds, phase: known.phase, may_have_spent: false },
      },
    );
  }
  const media = known.mediaIds;
  return new TransportTimeoutError(
    `No result within GFLOW_CLI_TIMEOUT_SECONDS (${seconds} s)${where}; it was already submitted, so credits may have been spent.`,
    {
      cause,
      retryable: false,
      remediationHint: media.length
        ? `Flow may still finish it: fetch it later with ${media.map((id) => `'gflow data download ${id}'`).join(' and ')} (spends nothing).`
        : 'Check the Flow project before retrying: credits may have been spent.',
      extensions: { timeout_seconds: seconds, phase: known.phase, may_have_spent: true, flow_media_ids: [...media] },
    },
  );
}

/** Records assets Flow named for a job that stopped before their files were written (status `pending`). */
function catalogueNamedMedia(
  runtime: RuntimeServices,
  plan: ImagePlan | VideoPlan,
  named: { profile: string; projectId: string; mediaIds: readonly string[]; operationId: number | undefined },
): void {
  const { profile, projectId, mediaIds, operationId } = named;
  try {
    const catalog = runtime.catalog;
    for (const [i, mediaId] of mediaIds.entries()) {
      if (catalog.assets.getByMediaId(profile, mediaId)) continue;
      const asset = catalog.assets.record({
        profile,
        flowMediaId: mediaId,
        kind: plan.kind,
        flowProjectId: projectId,
        model: plan.model?.name ?? null,
        aspectRatio: plan.aspect,
        status: 'pending',
      });
      if (operationId !== undefined) catalog.assets.link(operationId, asset.id, 'output', i);
    }
  } catch (error) {
    runtime.logger.warn('could not catalogue the media of a stopped job', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** One generation job's run: what generate and recordAndDownload share. */
interface JobRun {
  readonly runtime: RuntimeServices;
  /** The runtime's settings with the job's own from its row (effectiveSettings). */
  readonly settings: ResolvedSettings;
  readonly session: FlowSession;
  readonly plan: ImagePlan | VideoPlan;
  readonly payload: GenerationTaskPayload;
  readonly profile: string;
  readonly signal: AbortSignal;
}

async function generate(
  run: JobRun,
  onProgress: (event: DriverProgress) => void,
  spend: SpendControl,
): Promise<Generated> {
  const { runtime, settings, session, plan, payload, profile, signal } = run;
  const refs: { references: LocalReference[]; startFrame?: LocalReference; endFrame?: LocalReference } =
    await resolveGenerationInputs(runtime.catalog, plan, profile);
  // A chained generation (a media id as frame or reference) stays in that media's project unless
  // the caller named one: the result lands beside its source in Flow.
  const inherited = [refs.startFrame, ...refs.references].find((r) => r?.projectId)?.projectId;
  // project_name asks for a new project: neither the source's project nor GFLOW_CLI_PROJECT then.
  const project = payload.input.project ?? (payload.input.project_name ? undefined : (inherited ?? settings.project));
  const common = {
    // A project made for this run is titled: project_name, else the prompt's first words.
    ...(project
      ? { projectId: project }
      : { newProjectTitle: payload.input.project_name ?? projectTitleOf(payload.input.prompt) }),
    prompt: payload.expanded_prompt,
    count: plan.count,
    agentConfirm: settings.agentConfirm,
    signal,
    onProgress,
    beforeSubmit: spend.hook,
  };
  // In place where the asset is already in the project (a media id of it, or a file uploaded there before).
  const where = { profile, project };
  const references = refs.references.map((r) => placeReference(runtime.catalog, r, where));
  const startFrame = refs.startFrame ? placeReference(runtime.catalog, refs.startFrame, where) : undefined;
  const endFrame = refs.endFrame ? placeReference(runtime.catalog, refs.endFrame, where) : undefined;
  const sent = [...references, ...(startFrame ? [startFrame] : []), ...(endFrame ? [endFrame] : [])];
  const remember = (generated: Generated): Generated => {
    rememberUploads(runtime.catalog, generated, profile);
    if (fellBackToUpload(sent, generated)) referenceUploaded.add(generated);
    return generated;
  };
  // Saved characters go to the driver as `@` mentions of their names, verified by entity id.
  const characters = plan.characters.map((c) => ({ entityId: c.entityId, displayName: c.name }));
  if (plan.kind === 'image') {
    // The driver takes the names of the same table (@gflow/flow-facts); planImage already refused Imagen 4.
    return remember(
      await session.generateImage({
        ...common,
        model: plan.model.name,
        aspect: plan.aspect,
        references,
        characters,
        replyTimeoutMs: settings.timeoutSeconds * 1000,
      }),
    );
  }
  const video = await session.generateVideo({
    ...common,
    mode: plan.mode,
    aspect: plan.aspect,
    ...(plan.model ? { model: plan.model.name } : {}),
    ...(plan.duration !== undefined ? { duration: plan.duration } : {}),
    ...(plan.resolution ? { resolution: plan.resolution } : {}),
    ...(startFrame ? { startFrame } : {}),
    ...(endFrame ? { endFrame } : {}),
    references,
    characters,
    timeoutMs: settings.timeoutSeconds * 1000,
  });
  return remember(video);
}

/**
 * Records which catalogued media the operation started from (frames, references), so the gallery
 * can show what made a result and what was made from a media. Paths are not assets: only media ids
 * the catalog knows in this profile are linked.
 */
function linkInputs(catalog: Catalog, operationId: number, plan: ImagePlan | VideoPlan, profile: string): void {
  const link = (ref: MediaRef | undefined, role: 'input' | 'seed_start' | 'seed_end' | 'reference', position = 0) => {
    if (ref?.kind !== 'media') return;
    const asset = catalog.assets.getByMediaId(profile, ref.mediaId);
    if (asset) catalog.assets.link(operationId, asset.id, role, position);
  };
  plan.references.forEach((ref, i) => link(ref, plan.kind === 'image' ? 'input' : 'reference', i));
  if (plan.kind === 'video') {
    link(plan.startFrame, 'seed_start');
    link(plan.endFrame, 'seed_end');
  }
}

/** Runs whose in-place reference the picker did not list, so its file was uploaded after all. */
const referenceUploaded = new WeakSet<object>();

async function recordAndDownload(
  run: JobRun,
  outcome: { operationId: number; generated: Generated; progress: (event: ProgressEvent) => void },
): Promise<GenerationResult> {
  const { runtime, settings, session, plan, payload, profile, signal } = run;
  const { operationId, generated, progress } = outcome;
  const catalog = runtime.catalog;
  const kind: MediaKind = plan.kind;
  // The model that ran: the one asked for, else (no video model named: Flow's composer chose) the
  // one the submit's key names.
  const modelOf = (item: { readonly modelKey: string }): string | null =>
    plan.model?.name ?? (kind === 'video' ? (videoModelOfKey(item.modelKey)?.name ?? null) : null);
  catalog.projects.upsert({
    profile,
    flowProjectId: generated.projectId,
    ...(payload.input.project_name ? { title: payload.input.project_name } : {}),
  });
  // Assets first: if a download fails, the catalog still knows what Flow made (and billed).
  const assets = generated.items.map((item, i) => {
    const asset = catalog.assets.record({
      profile,
      flowMediaId: item.mediaId,
      kind,
      flowProjectId: generated.projectId,
      flowWorkflowId: item.workflowId ?? null,
      ...(item.displayName ? { displayName: item.displayName } : {}),
      model: modelOf(item),
      aspectRatio: plan.aspect,
      width: item.width ?? null,
      height: item.height ?? null,
      durationSeconds: plan.kind === 'video' ? (plan.duration ?? null) : null,
      seed: item.seed ?? null,
      status: 'ready',
    });
    catalog.assets.link(operationId, asset.id, 'output', i);
    return asset;
  });
  const files: string[] = [];
  const notes: string[] = [];
  const media: Array<Record<string, unknown>> = [];
  for (const [i, item] of generated.items.entries()) {
    if (signal.aborted) throw new CancelledError('Cancelled while downloading; the media exists in the Flow project.');
    progress({ phase: 'downloading', progress: i, total: generated.items.length, message: item.mediaId });
    const { bytes, extension: sniffed } = await session.download(item.url, {
      kind,
      fallbackUrl: item.posterUrl ?? null,
      expectedBytes: item.byteSize ?? null,
      mediaId: item.mediaId,
      signal,
    });
    const extension = extensionOf(bytes) ?? sniffed;
    const named = targetPathFor({
      outputDir: settings.outputDir,
      kind,
      mediaId: item.mediaId,
      index: i + 1,
      count: generated.items.length,
      extension,
      outputFile: payload.output_file,
      flatDir: payload.output_dir,
    });
    // A name the user chose is never replaced unless asked (overwrite / --force): one taken since the
    // check before the submit, or one whose extension the bytes changed, gets a free variant.
    const target = payload.output_file && payload.input.overwrite !== true ? freeVariantOf(named) : named;
    if (payload.output_file) notes.push(...namingNotes(payload.output_file, named, target, extension));
    const written = await writeMedia(target, bytes, extension).catch((error: unknown) => {
      if (isGflowError(error)) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new OutputWriteFailedError(
        `Could not write ${shownPath(settings.outputDir, target)} (${code}). The media ${item.mediaId} was made in Flow project ${generated.projectId}; recover it with 'gflow data download ${item.mediaId}' (gflow_download_media), which spends nothing.`,
        {
          cause: error,
          retryable: false,
          extensions: { media_id: item.mediaId, flow_project_id: generated.projectId },
        },
      );
    });
    catalog.localFiles.record({
      assetId: (assets[i] as { id: number }).id,
      path: written.path,
      bytes: written.bytes,
      sha256: written.sha256,
      mediaType: written.mediaType,
    });
    files.push(written.path);
    media.push({
      media_id: item.mediaId,
      workflow_id: item.workflowId ?? null,
      file: written.path,
      bytes: written.bytes,
      width: item.width ?? null,
      height: item.height ?? null,
      seed: item.seed ?? null,
    });
  }
  progress({ phase: 'recording' });
  const first = generated.items[0];
  return {
    status: 'completed',
    task_id: payload.task_id,
    task_type: plan.mode,
    flow_project_id: generated.projectId,
    flow_media_id: first?.mediaId ?? null,
    flow_workflow_id: first?.workflowId ?? null,
    files,
    ...(notes.length ? { notes } : {}),
    seed: plan.kind === 'image' ? (first?.seed ?? null) : null,
    media,
    // params.model says which model made it (its table name), also when none was named.
    params: { ...payload.params, model: (first ? modelOf(first) : null) ?? payload.params['model'] ?? null },
    ...(runtime.browserOverrides.sandbox ? { sandbox: true } : {}),
    ...(generated.recovered ? { recovered: true } : {}),
    ...(referenceUploaded.has(generated) ? { reference_uploaded: true } : {}),
    ...(generated.arm === 'agent-only'
      ? {
          ui_arm: 'agent-only' as const,
          ...(generated.agentQuotedCredits === undefined ? {} : { agent_quoted_credits: generated.agentQuotedCredits }),
        }
      : {}),
  };
}

/** What a written name says that was not asked: the extension the bytes set, a variant of a taken name. */
function namingNotes(asked: string, named: string, target: string, extension: string): string[] {
  const notes: string[] = [];
  const askedExt = path.extname(asked).toLowerCase();
  if (path.extname(named) !== path.extname(asked))
    notes.push(
      `${path.basename(named)}: the file is ${extension.toUpperCase()}, so it is named .${extension}${askedExt ? ` (not ${askedExt})` : ''}.`,
    );
  if (target !== named)
    notes.push(`${path.basename(named)} was already there and is kept; wrote ${path.basename(target)}.`);
  return notes;
}

/** A path for a message: relative to the output dir when inside it (MCP envelopes carry no home paths). */
function shownPath(outputDir: string, target: string): string {
  const relative = path.relative(outputDir, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target;
}

/** The most of a title a new project gets from its prompt. */
const PROJECT_TITLE_MAX = 60;

/**
 * A title for a project a run creates, from its prompt: the first line, spaces collapsed, cut at a
 * word boundary with an ellipsis past PROJECT_TITLE_MAX characters.
 */
export function projectTitleOf(prompt: string): string {
  const line = (prompt.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= PROJECT_TITLE_MAX) return line || 'gflow';
  const cut = line.slice(0, PROJECT_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > PROJECT_TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}
