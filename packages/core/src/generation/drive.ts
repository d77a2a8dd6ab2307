import type { Catalog } from '@gflow/catalog';
import type { DriverProgressEvent, FlowGenerationResult, FlowSession, ReferenceInput, SubmitHook } from '@gflow/driver';
import { type ResolvedInput, namedInputs } from './inputs.js';
import { fellBackToUpload, placeReference, rememberUploads } from './placeReferences.js';
import { SCRATCH_PROJECT_TITLE } from '../health/flowCheckRecord.js';
import { projectTitleOf } from './projectTitle.js';
import { type GenerationRequest, askedProject, askedProjectName } from './request.js';

/** What the drive phase is handed: the session, the request, and the hooks the run listens with. */
export interface DriveContext {
  readonly catalog: Catalog;
  readonly session: FlowSession;
  readonly request: GenerationRequest;
  readonly profile: string;
  /** The project GFLOW_CLI_PROJECT names for the job (its row's settings, else the runtime's). */
  readonly defaultProject: string | undefined;
  readonly agentConfirm: 'always' | 'never';
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly onProgress: (event: DriverProgressEvent) => void;
  readonly beforeSubmit: SubmitHook;
  /**
   * A dry run with no project of its own reads its quote in the profile's scratch project (the one
   * `doctor --live` checks in), made once and remembered, instead of leaving a new empty project
   * behind each time.
   */
  readonly scratch?: { readonly projectId: string | null; remember(projectId: string): void } | undefined;
}

/** What Flow made, and whether a reference sent in place had to be uploaded after all. */
export interface Driven {
  readonly generated: FlowGenerationResult;
  readonly referenceUploaded: boolean;
}

/**
 * The project the run generates into: the one named, else (no new project asked) the project of a
 * catalogued source — a chained generation lands beside its source — else GFLOW_CLI_PROJECT.
 */
function projectOf(ctx: DriveContext): string | undefined {
  const { inputs } = ctx.request;
  const asked = askedProject(ctx.request);
  if (asked !== undefined) return asked;
  if (askedProjectName(ctx.request) !== undefined) return undefined;
  const all = [inputs.startFrame, ...inputs.references];
  return all.find((r) => r?.projectId)?.projectId ?? ctx.defaultProject ?? ctx.scratch?.projectId ?? undefined;
}

/** The title of a project the run makes: project_name, the scratch project's for a dry run, else the prompt's first words. */
function newProjectTitle(ctx: DriveContext): string {
  const name = askedProjectName(ctx.request);
  if (name !== undefined) return name;
  return ctx.scratch !== undefined ? SCRATCH_PROJECT_TITLE : projectTitleOf(ctx.request.input.prompt);
}

/** The request's parts every driver generation takes. */
function commonRequest(ctx: DriveContext, project: string | undefined) {
  const { expanded_prompt: prompt, plan } = ctx.request;
  return {
    ...(project ? { projectId: project } : { newProjectTitle: newProjectTitle(ctx) }),
    prompt,
    count: plan.count,
    agentConfirm: ctx.agentConfirm,
    signal: ctx.signal,
    onProgress: ctx.onProgress,
    beforeSubmit: ctx.beforeSubmit,
    // Saved characters go to the driver as `@` mentions of their names, verified by entity id.
    characters: plan.characters.map((c) => ({ entityId: c.entityId, displayName: c.name })),
  };
}

/** An extension in the source's project: the driver's scene editor, its submit held to the source's workflow id. */
function extendClip(ctx: DriveContext, request: Extract<GenerationRequest, { kind: 'extend' }>) {
  const { source } = request;
  return ctx.session.extendVideo({
    projectId: source.project_id,
    source: { mediaId: source.media_id, workflowId: source.workflow_id, durationSeconds: source.duration_seconds },
    prompt: request.expanded_prompt,
    model: request.plan.model,
    signal: ctx.signal,
    onProgress: ctx.onProgress,
    beforeSubmit: ctx.beforeSubmit,
    timeoutMs: ctx.timeoutMs,
  });
}

/** Runs the generation in Flow: the driver configures, binds, submits and watches; the uploads are remembered. */
export async function driveGeneration(ctx: DriveContext): Promise<Driven> {
  const { request, catalog, session, profile } = ctx;
  const project = projectOf(ctx);
  // In place where the asset is already in the project (a media id of it, or a file uploaded there before).
  const place = (ref: ResolvedInput): ReferenceInput => placeReference(catalog, ref, { profile, project });
  const references = request.inputs.references.map(place);
  const common = { ...commonRequest(ctx, project), references };
  let generated: FlowGenerationResult;
  let sent: ReferenceInput[] = references;
  if (request.kind === 'image') {
    generated = await session.generateImage({
      ...common,
      model: request.plan.model,
      aspect: request.plan.aspect,
      replyTimeoutMs: ctx.timeoutMs,
    });
  } else if (request.kind === 'extend') {
    generated = await extendClip(ctx, request);
  } else {
    const { plan, inputs } = request;
    const startFrame = inputs.startFrame ? place(inputs.startFrame) : undefined;
    const endFrame = inputs.endFrame ? place(inputs.endFrame) : undefined;
    sent = [...references, ...(startFrame ? [startFrame] : []), ...(endFrame ? [endFrame] : [])];
    generated = await session.generateVideo({
      ...common,
      mode: plan.mode,
      aspect: plan.aspect,
      ...(plan.model ? { model: plan.model } : {}),
      ...(plan.duration !== undefined ? { duration: plan.duration } : {}),
      ...(plan.resolution ? { resolution: plan.resolution } : {}),
      ...(startFrame ? { startFrame } : {}),
      ...(endFrame ? { endFrame } : {}),
      timeoutMs: ctx.timeoutMs,
    });
  }
  rememberUploads(
    catalog,
    generated,
    profile,
    namedInputs(request.inputs).map(([, input]) => input),
  );
  if (project === undefined) ctx.scratch?.remember(generated.projectId);
  return { generated, referenceUploaded: fellBackToUpload(sent, generated) };
}
