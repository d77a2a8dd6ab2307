import type { ErrorEnvelopeBody } from '@gflow/errors';
import { IMAGE_ASPECTS, VIDEO_ASPECTS, VIDEO_RESOLUTIONS } from '@gflow/flow-facts';
import { z } from 'zod';
import {
  caseInsensitive,
  flowId,
  flowUuid,
  idempotencyKeyParam,
  localPath,
  profileParam,
  profilePoolParam,
  toolSpec,
} from '../schemas/params.js';
import { PROBLEM_STATUSES, type ProblemStatus, RESULT_STATUSES } from '../schemas/resultStatus.js';
import { MAX_DATA_URL_CHARS, isDataUrl } from './dataUrlImages.js';

const WAIT_DESCRIPTION =
  'true (default): run the generation inside this call and return the files — minutes for a video, which can outlast your MCP client\'s tool timeout (raise it, or use wait=false). false: return {status:"pending", task_id} at once; the job runs in this server\'s background, one at a time per profile; follow it with gflow_task_wait or gflow_task_get and stop it with gflow_task_cancel. A client that declares the MCP Tasks extension (io.modelcontextprotocol/tasks) gets a task (CreateTaskResult, followed with tasks/get) whatever wait says. A task id is a bearer capability.';

const DRY_RUN_DESCRIPTION =
  'true: do everything up to the submit click (checks, project, references uploaded and attached, settings set), read Flow\'s credit quote and the balance, and return {status:"estimated", credits_quoted, balance, plan, budget} without submitting: nothing is generated or spent (uploads stay in the project and are listed).';

const OUTPUT_DESCRIPTION =
  'File to write (MCP: relative to, and confined inside, the output directory GFLOW_CLI_OUTPUT_DIR; a directory is refused). With count > 1 the files are <stem>_1, <stem>_2, …';

/**
 * An image input: a local path or a generated image's media id (≤ 4096 characters), or the image
 * itself inline as a data URL (data:image/png;base64,…, ≤ 20 MB) for a client on another machine.
 */
const imageRef = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_DATA_URL_CHARS)
    .refine((v) => isDataUrl(v) || v.length <= 4096, 'a path or media id is at most 4096 characters')
    .describe(what);

const shared = {
  prompt: z
    .string()
    .trim()
    .min(1, 'prompt must not be empty')
    .max(20_000)
    .describe(
      'What to generate. On images and r2v videos an @Name of a saved character is attached where it stands (exactly one character of that name; two are refused naming their ids; no character of that name: plain text).',
    ),
  count: z.number().int().min(1).max(4).default(1).describe('How many results, 1–4.'),
  reference_entities: z
    .array(flowId('a character entity id'))
    .max(10)
    .optional()
    .describe(
      'Saved character entity ids (gflow_character_list); pair each with reference_entity_names on flow.google.com.',
    ),
  reference_entity_names: z
    .array(z.string().trim().min(1).max(200))
    .max(10)
    .optional()
    .describe('Display names paired with reference_entities, position by position.'),
  tools: z
    .array(toolSpec)
    .max(8)
    .optional()
    .describe(
      'Prompt tools applied to the prompt before sending, e.g. [{"name":"creative-director"}]; see gflow_list_tools.',
    ),
  profile: profileParam,
  profile_pool: profilePoolParam,
  project: flowUuid('project')
    .optional()
    .describe('Existing Flow project id to generate into. Omitted: GFLOW_CLI_PROJECT, else a new project.'),
  project_name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Title of a new project to create for this generation.'),
  ui_mode: caseInsensitive(['auto', 'classic', 'agentic'])
    .optional()
    .describe('Flow UI arm: auto (= classic), classic or agentic.'),
  output: localPath.optional().describe(OUTPUT_DESCRIPTION),
  output_dir: localPath
    .optional()
    .describe(
      'Directory to write the files into, flat, each named by its media id (<media_id>.<ext>); MCP: relative to, and confined inside, GFLOW_CLI_OUTPUT_DIR. Not together with output.',
    ),
  overwrite: z
    .boolean()
    .default(false)
    .describe(
      'true: replace a file already at the output path. false (default): an output file that exists is refused before anything is sent, and a name taken meanwhile (or changed by the extension the bytes need) gets a free variant (<stem>-2.<ext>); nothing is ever replaced silently.',
    ),
  wait: z.boolean().default(true).describe(WAIT_DESCRIPTION),
  idempotency_key: idempotencyKeyParam,
  dry_run: z.boolean().default(false).describe(DRY_RUN_DESCRIPTION),
  max_credits: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe(
      'Refuse (budget-exceeded) a submit whose quote is above this many credits; it can only lower GFLOW_CLI_MAX_CREDITS_PER_CALL, never raise it. A quote that cannot be read is then refused too.',
    ),
};

/** The zod schema of `generateImage`: prompt, model, aspect, count, references, project, output and profile, each described for the MCP tool the schema also becomes. */
export const generateImageInput = z.object({
  ...shared,
  model: z
    .string()
    .trim()
    .min(1)
    .default('nano2')
    .describe(
      'nano2 (Nano Banana 2.1, default), nano2-lite, nano-pro, or image4 (Imagen 4, labs only); aliases accepted (gflow_list_models).',
    ),
  aspect: z.enum(IMAGE_ASPECTS).default('1:1').describe('Aspect ratio: 1:1 (default), 9:16, 16:9, 4:3, 3:4.'),
  reference_images: z
    .array(imageRef('A reference image.'))
    .max(10)
    .optional()
    .describe(
      'Local image paths, generated image media UUIDs, or images inline as data URLs (data:image/png;base64,…, ≤ 20 MB each); any entry makes this image-to-image.',
    ),
  instructions: z
    .array(z.string().trim().min(1).max(2000))
    .max(10)
    .optional()
    .describe(
      'Ephemeral agent instructions; they force the agentic arm, which flow.google.com does not offer, so any is refused there before anything is sent (the CLI\'s exit 36). With ui_mode="classic" it is a conflict (400). Persistent cards: gflow_instructions_add.',
    ),
});

/** The zod schema of `generateVideo`: prompt, mode (t2v, i2v, r2v), frames, references, model, aspect, duration, count, project, output and profile. */
export const generateVideoInput = z.object({
  ...shared,
  mode: caseInsensitive(['t2v', 'i2v', 'r2v'])
    .default('t2v')
    .describe(
      't2v (text), i2v (from initial_frame, optionally end_frame) or r2v (from reference_images / reference_entities).',
    ),
  aspect: z.enum(VIDEO_ASPECTS).default('9:16').describe('9:16 (default) or 16:9.'),
  model: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      "omni_flash, omni_1_2_flash, veo_lite, veo_fast, veo_quality, veo_lite_lp (aliases accepted). Omitted: Flow's default (i2v: veo_lite).",
    ),
  duration: z
    .number()
    .int()
    .min(1)
    .max(15)
    .optional()
    .describe(
      'Seconds: 4/6/8 on Veo 3.1, 4/6/8/10 on omni_flash, 3–15 on omni_1_2_flash (≤10 with end_frame); r2v on Veo or no model: 8 only.',
    ),
  resolution: z.enum(VIDEO_RESOLUTIONS).optional().describe('360p or 720p, Omni models only.'),
  initial_frame: imageRef(
    'i2v start frame: a local image path, a generated image media UUID, or the image inline as a data URL (data:image/png;base64,…, ≤ 20 MB).',
  ).optional(),
  end_frame: imageRef('i2v end frame (optional): a local image path or a data URL.').optional(),
  reference_images: z
    .array(imageRef('A reference image.'))
    .max(10)
    .optional()
    .describe('r2v references: local image paths, generated image media UUIDs or data URLs (not with frames).'),
});

/**
 * The zod schema of `extendVideo`: the finished clip to continue (its media id), what happens next,
 * the Veo 3.1 model of the scene editor's extend entry, the output, the spend controls and the profile.
 */
export const extendVideoInput = z.object({
  media_id: flowUuid('media').describe(
    "The finished video to continue: its media id (gflow_list_media; a result's flow_media_id). It must be this profile's, in the catalog, with its Flow workflow id (every clip gflow made has one).",
  ),
  prompt: shared.prompt.describe("What happens next, from the clip's last second."),
  model: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      "The scene editor's extend entry: a Veo 3.1 model (veo_lite, the default and the one captured; veo_fast, veo_quality). Omni models do not extend.",
    ),
  tools: shared.tools,
  profile: shared.profile,
  output: shared.output,
  output_dir: shared.output_dir,
  overwrite: shared.overwrite,
  wait: shared.wait,
  idempotency_key: shared.idempotency_key,
  dry_run: shared.dry_run,
  max_credits: shared.max_credits,
});
/** `extendVideo`'s input once parsed (defaults applied). */
export type ExtendVideoInput = z.output<typeof extendVideoInput>;

/** `generateImage`'s input once parsed (defaults applied); `gflow.run` takes `OperationInput<'generateImage'>`. */
export type GenerateImageInput = z.output<typeof generateImageInput>;
/** `generateVideo`'s input once parsed (defaults applied); `gflow.run` takes `OperationInput<'generateVideo'>`. */
export type GenerateVideoInput = z.output<typeof generateVideoInput>;

/** One result of a completed generation, as its envelope's `media` lists it: its ids, the file written, what it is. */
const generatedMedia = z.looseObject({
  media_id: z.string(),
  workflow_id: z.string().nullable(),
  file: z.string(),
  bytes: z.number().int().nonnegative(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  seed: z.number().nullable(),
});
/** One file a completed generation wrote, as `media` lists it. */
export type GeneratedMedia = z.output<typeof generatedMedia>;

/** The members of the task envelope every generation returns; which are there depends on its status. */
const envelopeMembers = {
  status: z
    .enum(RESULT_STATUSES)
    .describe('What the other members hold depends on it: completed, a failure, pending (wait=false), estimated.'),
  task_id: z.string().optional().describe('Always on completed, pending and estimated.'),
  task_type: z.string().optional(),
  flow_project_id: z.string().nullable().optional(),
  flow_media_id: z.string().nullable().optional().describe('Always on completed: the first media made.'),
  /** Every media id Flow named, also for a job that stopped before its files were written. */
  flow_media_ids: z.array(z.string()).optional(),
  flow_workflow_id: z.string().nullable().optional(),
  files: z.array(z.string()).optional().describe('Always on completed: the files written, in order.'),
  media: z
    .array(generatedMedia)
    .optional()
    .describe('Always on completed: each file with its media and workflow ids, its bytes, its pixels and seed.'),
  /** What the files' names say that was not asked: the extension the bytes set, a variant of a name already taken. */
  notes: z.array(z.string()).optional(),
  seed: z.number().nullable().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  error: z
    .unknown()
    .optional()
    .describe(
      "Always on a failure: its RFC 9457 problem document with its message (invalid_tools: the prompt tool's complaint, in words).",
    ),
  sandbox: z.boolean().optional(),
  /** Flow's submit reply was lost and the clip was followed to through the project's listing (seed 000 #1112, #1141). */
  recovered: z.boolean().optional(),
  /** A reference sent in place (already in the project) was not listed by Flow's picker, so its local file was uploaded. */
  reference_uploaded: z.boolean().optional(),
  /** Made by the chat agent of an agent-only composer (seed 000 §6.1, #799); absent for the classic composer. */
  ui_arm: z.literal('agent-only').optional(),
  /** The credits the agent's confirmation quoted, when it asked for one. */
  agent_quoted_credits: z.number().int().nonnegative().optional(),
  /** What Flow quoted before the click (the settings pane's cost line, the agent's confirmation); null: unreadable. */
  credits_quoted: z.number().int().nonnegative().nullable().optional(),
  /** What a balance read after the run measured; null: not measured. */
  credits_spent: z.number().int().nonnegative().nullable().optional(),
  /** A dry run (status "estimated"): the balance the page showed, what would run, the budgets, the uploads made. */
  balance: z.number().int().nonnegative().nullable().optional(),
  plan: z.record(z.string(), z.unknown()).optional(),
  budget: z.record(z.string(), z.unknown()).optional(),
  uploads: z.array(z.looseObject({ display_name: z.string(), media_id: z.string() })).optional(),
  /** The saved characters attached to the submit (passed, or named by `@` in the prompt): entity id and name. */
  characters: z.array(z.looseObject({ id: z.string(), name: z.string() })).optional(),
  /** The Flow project's title as its page shows it, when it shows one. */
  flow_project_title: z.string().optional(),
};

/** An RFC 9457 problem document with its one-line `message`, as every surface writes a failure's `error`. */
const problemDocument = z.custom<ErrorEnvelopeBody>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    typeof (value as { status?: unknown }).status === 'number',
  'a problem document ({type, title, status, detail, …})',
);

/**
 * The envelope by its status, what each guarantees beyond the shared members: `completed` its
 * task, project and media ids, files and media; `estimated` (a dry run) its task, project and plan;
 * `pending` its task id (a wait that passed its bound says where the task stands); a failure its
 * problem document (`invalid_tools`: the prompt tool's complaint, in words).
 */
const generationVariants = z.discriminatedUnion('status', [
  z.object({
    ...envelopeMembers,
    status: z.literal('completed'),
    task_id: z.string(),
    flow_project_id: z.string(),
    flow_media_id: z.string(),
    files: z.array(z.string()),
    media: z.array(generatedMedia),
  }),
  z.object({
    ...envelopeMembers,
    status: z.literal('estimated'),
    task_id: z.string(),
    flow_project_id: z.string(),
    plan: z.record(z.string(), z.unknown()),
  }),
  z.object({
    ...envelopeMembers,
    status: z.literal('pending'),
    task_id: z.string(),
    /** A wait that passed its bound (gflow_task_wait on a server): the task's own status, its phase, whether it may have spent, the time waited, what to do next. */
    task_status: z.string().optional(),
    phase: z.string().nullable().optional(),
    may_have_spent: z.boolean().optional(),
    elapsed_seconds: z.number().optional(),
    hint: z.string().optional(),
    error: problemDocument.optional(),
  }),
  z.object({ ...envelopeMembers, status: z.enum(PROBLEM_STATUSES), error: problemDocument }),
  z.object({ ...envelopeMembers, status: z.literal('invalid_tools'), error: z.string() }),
]);

/**
 * What a generation returns: `completed` with the task, project and media ids, the files written,
 * the media and the parameters that made them; a failure status (`failed`, `cancelled`,
 * `indeterminate`, `rate_limited`, `error`) with its RFC 9457 `error`; `estimated` for a dry run;
 * `pending` with a task id for `wait: false`. A union on `status`: checking it narrows the rest.
 */
export type GenerationResult = z.output<typeof generationVariants>;
/** A generation that made its media: `files`, `media` and the ids are there. */
export type CompletedGeneration = Extract<GenerationResult, { readonly status: 'completed' }>;
/** A generation that did not make its media, with the problem document that says why. */
export type FailedGeneration = Extract<GenerationResult, { readonly status: ProblemStatus }>;

/** Holds an envelope to what its status guarantees (the variants above); a refinement, so no JSON Schema changes. */
function fitsItsStatus(envelope: unknown, ctx: z.RefinementCtx): void {
  const checked = generationVariants.safeParse(envelope);
  if (!checked.success)
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
}

/**
 * The wire schema of the envelope: one object whose members all but `status` are optional (MCP's
 * outputSchema must be an object, and a host that maps a single-type dialect cannot take a `oneOf`
 * at its root), refined to what each status guarantees.
 */
export const generationEnvelope = z.looseObject(envelopeMembers).superRefine(fitsItsStatus);

/**
 * The task envelope every generation returns (wait=true: completed or a failure status; wait=false:
 * pending), as its zod schema: the wire object (`generationEnvelope`) typed as the union on
 * `status` its refinement enforces ({@link GenerationResult}).
 */
export const generationResult = generationEnvelope as unknown as z.ZodType<
  GenerationResult,
  z.input<typeof generationEnvelope>
>;
