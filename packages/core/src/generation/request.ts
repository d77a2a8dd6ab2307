import { QueueSchemaError } from '@gflow/errors';
import {
  IMAGE_ASPECTS,
  IMAGE_MODELS,
  type ImageModelName,
  VIDEO_ASPECTS,
  VIDEO_MODELS,
  VIDEO_RESOLUTIONS,
  type VideoModelName,
} from '@gflow/flow-facts';
import { z } from 'zod';
import type { ExtendPlan, ImagePlan, VideoPlan } from './plan.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import type { ResolvedInput, ResolvedInputs } from './inputs.js';
import { extendVideoInput, generateImageInput, generateVideoInput } from './schemas.js';

/**
 * The resolved request of one generation: what the task row carries across the process boundary
 * (a `--no-wait` worker, a daemon's background) and what the job runs from — the plan made once,
 * the inputs resolved once, the output target, the budgets and the settings the queuing process
 * resolved. The worker parses a row with this schema as it parses user input: a row of another
 * `schema_version`, or one this gflow cannot read, is refused with a clear error and never run.
 */
export const GENERATION_REQUEST_VERSION = 2;

const nonEmpty = z.string().min(1);
const mediaRef = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: nonEmpty }).strict(),
  z.object({ kind: z.literal('media'), mediaId: nonEmpty }).strict(),
]);
const characterRef = z.object({ entityId: nonEmpty, name: nonEmpty }).strict();
const imageModelNames = IMAGE_MODELS.map((m) => m.name) as [ImageModelName, ...ImageModelName[]];
const videoModelNames = VIDEO_MODELS.map((m) => m.name) as [VideoModelName, ...VideoModelName[]];

const imagePlan = z
  .object({
    kind: z.literal('image'),
    mode: z.enum(['t2i', 'i2i']),
    model: z.enum(imageModelNames),
    aspect: z.enum(IMAGE_ASPECTS),
    count: z.number().int().min(1).max(4),
    references: z.array(mediaRef),
    characters: z.array(characterRef),
  })
  .strict() satisfies z.ZodType<ImagePlan>;

const videoPlan = z
  .object({
    kind: z.literal('video'),
    mode: z.enum(['t2v', 'i2v', 'r2v']),
    model: z.enum(videoModelNames).optional(),
    aspect: z.enum(VIDEO_ASPECTS),
    count: z.number().int().min(1).max(4),
    duration: z.number().int().positive().optional(),
    resolution: z.enum(VIDEO_RESOLUTIONS).optional(),
    startFrame: mediaRef.optional(),
    endFrame: mediaRef.optional(),
    references: z.array(mediaRef),
    characters: z.array(characterRef),
  })
  .strict() satisfies z.ZodType<VideoPlan>;

const extendPlan = z
  .object({
    kind: z.literal('extend'),
    mode: z.literal('extend'),
    model: z.enum(videoModelNames),
    count: z.literal(1),
    source: z.object({ kind: z.literal('media'), mediaId: nonEmpty }).strict(),
    references: z.array(mediaRef).max(0),
    characters: z.array(characterRef).max(0),
  })
  .strict() satisfies z.ZodType<ExtendPlan>;

/** The clip an extension continues, as the catalog knew it when the request was made (generation/extendSource). */
const extendSource = z
  .object({
    media_id: nonEmpty,
    workflow_id: nonEmpty,
    project_id: nonEmpty,
    duration_seconds: z.number().int().min(1).max(60),
    aspect_ratio: z.string().nullable(),
  })
  .strict();

const resolvedInput = z
  .object({
    path: nonEmpty,
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    displayName: nonEmpty,
    mediaId: nonEmpty.optional(),
    projectId: nonEmpty.optional(),
    flowName: nonEmpty.optional(),
  })
  .strict() satisfies z.ZodType<ResolvedInput>;

const resolvedInputs = z
  .object({
    references: z.array(resolvedInput),
    startFrame: resolvedInput.optional(),
    endFrame: resolvedInput.optional(),
  })
  .strict() satisfies z.ZodType<ResolvedInputs>;

/** The budgets of one generation, as the process that queued it resolved them (generation/spend.ts). */
export const creditBudget = z
  .object({
    max_credits_per_call: z.number().int().nonnegative().nullable(),
    per_call_source: z.enum(['GFLOW_CLI_MAX_CREDITS_PER_CALL', 'max_credits']).nullable(),
    daily_credit_budget: z.number().int().nonnegative().nullable(),
  })
  .strict();

/**
 * The settings a job reads, as the process that queued it resolved them. A wait=false task is run
 * by whichever process claims it (a CLI's background worker, started with other settings perhaps):
 * these travel in the row so the job writes where, and waits as long as, its caller said.
 */
export const jobSettings = z
  .object({
    output_dir: nonEmpty,
    timeout_seconds: z.number().positive(),
    agent_confirm: z.enum(['always', 'never']),
    project: nonEmpty.nullable(),
  })
  .strict();

const common = {
  schema_version: z.literal(GENERATION_REQUEST_VERSION),
  task_id: z.string().regex(/^[\w-]{1,128}$/),
  /** The command or tool that asked, as the surface names it (`image t2i`, `gflow_generate_video`). */
  command: nonEmpty,
  surface: z.enum(['cli', 'mcp', 'http', 'library']),
  /** The prompt after prompt tools (the prompt as asked is `input.prompt`). */
  expanded_prompt: z.string(),
  /** The plan's references and frames, each resolved once when the request was made. */
  inputs: resolvedInputs,
  output: z.object({ file: nonEmpty.optional(), dir: nonEmpty.optional(), overwrite: z.boolean() }).strict(),
  /** The parameters the result reports (`params`). */
  params: z.record(z.string(), z.unknown()),
  credit_budget: creditBudget,
  job_settings: jobSettings.optional(),
};

export const generationRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), input: generateImageInput, plan: imagePlan, ...common }).strict(),
  z
    .object({
      kind: z.literal('video'),
      input: generateVideoInput,
      plan: videoPlan,
      ...common,
    })
    .strict(),
  z
    .object({
      kind: z.literal('extend'),
      input: extendVideoInput,
      plan: extendPlan,
      source: extendSource,
      ...common,
    })
    .strict(),
]);
/** Whether a task row's payload is a generation's request (an image, a video or an extension, not a run). */
export function isGenerationPayload(payload: unknown): boolean {
  const kind = (payload as { kind?: unknown } | null)?.kind;
  return kind === 'image' || kind === 'video' || kind === 'extend';
}

/** The Flow project a request names: the one asked for, or an extension's source's own. */
export function askedProject(request: GenerationRequest): string | undefined {
  return request.kind === 'extend' ? request.source.project_id : request.input.project;
}

/** The title asked for a new project (an extension makes none: it lands beside its source). */
export function askedProjectName(request: GenerationRequest): string | undefined {
  return request.kind === 'extend' ? undefined : request.input.project_name;
}

/** The aspect ratio the result has: the one asked for, or an extension's source's. */
export function aspectOf(request: GenerationRequest): string | null {
  return request.kind === 'extend' ? request.source.aspect_ratio : request.plan.aspect;
}

/** What a request makes: an image, or a video (a clip or an extension of one). */
export function mediaKindOf(request: { readonly kind: 'image' | 'video' | 'extend' }): 'image' | 'video' {
  return request.kind === 'image' ? 'image' : 'video';
}

/** A generation's resolved request: the task row's payload. */
export type GenerationRequest = z.output<typeof generationRequest>;
export type JobSettings = z.output<typeof jobSettings>;

/**
 * Reads a task row's payload as a request, or refuses it: another `schema_version`, or a shape
 * this gflow cannot read (a row written by another version, or edited), is a queue-schema error
 * naming what is wrong, and the job is not run.
 */
export function parseGenerationRequest(payload: unknown, taskId: string): GenerationRequest {
  const version = (payload as { schema_version?: unknown } | null)?.schema_version;
  if (version !== GENERATION_REQUEST_VERSION)
    throw new QueueSchemaError(
      `Task ${taskId} was written as schema_version ${String(version)}; this gflow runs schema_version ${GENERATION_REQUEST_VERSION} only. It was not run.`,
      {
        extensions: { task_id: taskId, schema_version: version ?? null, supported: [GENERATION_REQUEST_VERSION] },
        remediationHint: 'Run it again with this gflow (nothing was sent for it).',
      },
    );
  const parsed = generationRequest.safeParse(payload);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new QueueSchemaError(
      `Task ${taskId} cannot be read as a generation request (${first?.path.join('.') || 'payload'}: ${first?.message ?? 'invalid'}). It was not run.`,
      { extensions: { task_id: taskId }, remediationHint: 'Run it again (nothing was sent for it).' },
    );
  }
  return parsed.data;
}

/** The job settings of a wait=false request, as this process resolved them. */
export function jobSettingsOf(settings: ResolvedSettings): JobSettings {
  return {
    output_dir: settings.outputDir,
    timeout_seconds: settings.timeoutSeconds,
    agent_confirm: settings.agentConfirm,
    project: settings.project ?? null,
  };
}

/** The settings a job runs with: the row's (when the queuing process wrote them), else the runtime's. */
export function effectiveSettings(
  settings: ResolvedSettings,
  request: { readonly job_settings?: JobSettings | undefined },
): ResolvedSettings {
  const own = request.job_settings;
  if (!own) return settings;
  const { project: _project, ...rest } = settings;
  return {
    ...rest,
    outputDir: own.output_dir,
    timeoutSeconds: own.timeout_seconds,
    agentConfirm: own.agent_confirm,
    ...(own.project === null ? {} : { project: own.project }),
  };
}
