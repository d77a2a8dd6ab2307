import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  BadParameterError,
  ConfigurationError,
  InvalidOutputError,
  hasErrorCode,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { rateLimitedError } from '@gflow/lease/limits';
import type { z } from 'zod';
import { resolveProfile } from '../home/profiles.js';
import { type GenerationTaskPayload, jobSettingsOf } from '../jobs/generationPayload.js';
import { runGenerationTask } from '../jobs/generationJob.js';
import { askedPathsFor } from '../jobs/mediaFiles.js';
import { resolveGenerationInputs } from '../jobs/references.js';
import { creditBudgetOf } from '../jobs/spendControl.js';
import { assertNotDirectory, confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { llmEndpointOf } from '../promptTools/llmClient.js';
import { expandPrompt, loadPromptTools } from '../promptTools/promptTools.js';
import {
  type GenerateImageInput,
  type GenerateVideoInput,
  type GenerationResult,
  generateImageInput,
  generateVideoInput,
  generationResult,
} from './generationSchemas.js';
import { type OperationContext, defineOperation } from './operation.js';
import { planImage, planVideo } from './validateGeneration.js';

type Kind = 'image' | 'video';

/** Where the files of one generation go: an explicit file, a flat directory, or (neither) the output tree. */
export interface OutputTarget {
  readonly output_file?: string;
  readonly output_dir?: string;
}

/**
 * Where the files will go, checked before anything is sent: the explicit output (MCP: confined
 * to the output dir; the CLI's -o: the user's own path, never a directory, never an existing file
 * unless overwrite), the flat output_dir, or the output dir's layout — in each case a directory
 * files can really be written into.
 */
export function outputTargetFor(
  input: {
    readonly output?: string | undefined;
    readonly output_dir?: string | undefined;
    readonly overwrite?: boolean | undefined;
    readonly count?: number | undefined;
  },
  context: OperationContext,
): OutputTarget {
  const { settings } = context.runtime;
  const confine = SURFACE_POLICY[context.surface].confineOutput;
  if (input.output && input.output_dir) {
    throw new BadParameterError('Name either output (a file) or output_dir (a directory), not both.', {
      extensions: { parameter: 'output_dir' },
    });
  }
  if (input.output_dir) {
    const dir = confine
      ? confineToOutputDir(settings.outputDir, input.output_dir, { parameter: 'output_dir', kind: 'dir' })
      : path.resolve(input.output_dir);
    ensureWritableDirectory(dir, 'output_dir');
    return { output_dir: dir };
  }
  if (!input.output) {
    ensureWritableDirectory(settings.outputDir, 'GFLOW_CLI_OUTPUT_DIR');
    return {};
  }
  let target: string;
  if (confine) {
    target = confineToOutputDir(settings.outputDir, input.output, { parameter: 'output', kind: 'file' });
  } else {
    target = path.resolve(input.output);
    assertNotDirectory(/[/\\]$/.test(input.output) ? `${target}/` : target, 'output', settings.outputDir);
  }
  ensureWritableDirectory(path.dirname(target), 'output');
  if (input.overwrite !== true) {
    const taken = askedPathsFor(target, input.count ?? 1).filter((file) => fs.existsSync(file));
    if (taken.length > 0) {
      throw new InvalidOutputError(
        `output: ${taken.join(', ')} already exists and would be replaced. Nothing was sent to Flow.`,
        {
          remediationHint: 'Name another file, or pass --force to replace it.',
          extensions: { parameter: 'output', existing: taken },
        },
      );
    }
  }
  return { output_file: target };
}

function paramsOf(kind: Kind, input: GenerateImageInput | GenerateVideoInput): Record<string, unknown> {
  const { prompt, model, aspect, count } = input;
  if (kind === 'image') return { prompt, model, aspect, count };
  const video = input as GenerateVideoInput;
  return {
    prompt,
    mode: video.mode,
    model: model ?? null,
    aspect,
    count,
    duration: video.duration ?? null,
    resolution: video.resolution ?? null,
  };
}

/**
 * The generation path shared by every surface: semantic checks, prompt tools
 * and output rules (all before anything is queued), the no-spend gate, the
 * token bucket (where the surface policy says so: MCP, HTTP), profile resolution, the task row, then the job —
 * inline for wait=true; for wait=false in a detached worker (the CLI's runtime.background), else in this
 * process's background.
 */
export async function submitGeneration(
  kind: Kind,
  input: GenerateImageInput | GenerateVideoInput,
  context: OperationContext,
  options: { readonly rateLimited?: boolean } = {},
): Promise<GenerationResult> {
  const { runtime } = context;
  const { settings } = runtime;
  const policy = SURFACE_POLICY[context.surface];
  const plan = kind === 'image' ? planImage(input as GenerateImageInput) : planVideo(input as GenerateVideoInput);
  let expanded: string;
  try {
    expanded = (
      await expandPrompt(input.prompt, input.tools ?? [], loadPromptTools(runtime.layout.toolsDir), {
        llm: llmEndpointOf(settings),
        signal: context.signal,
      })
    ).expanded;
  } catch (error) {
    if (hasErrorCode(error, 'bad-parameter')) return { status: 'invalid_tools', error: (error as Error).message };
    throw error;
  }
  const outputTarget = outputTargetFor(input, context);
  if (settings.noSpend) {
    throw new ConfigurationError('No-spend mode is on (GFLOW_MCP_NO_SPEND / --no-spend): generation is disabled.', {
      remediationHint: 'Unset GFLOW_MCP_NO_SPEND or drop --no-spend to generate.',
    });
  }
  // Every check that needs no browser runs before a token is taken or a task queued: an unknown
  // profile, a media id the catalog does not have, a frame file that is not there fail now, with
  // their own code, on wait=false as on wait=true.
  const profile = resolveProfile(runtime.layout, {
    requested: input.profile,
    settings: settings,
  });
  await resolveGenerationInputs(runtime.catalog, plan, profile.name);
  // A batch takes its tokens itself (it waits for one instead of failing halfway).
  if (policy.rateLimit && options.rateLimited !== false) {
    const taken = runtime.limiter.tryTake();
    if (!taken.ok) {
      const error = rateLimitedError(
        taken.retryAfterMs,
        settings.rateLimitCapacity,
        settings.rateLimitRefillSeconds * 1000,
      );
      return { status: 'rate_limited', error: toErrorEnvelopeBody(error) };
    }
  }
  const taskId = randomUUID();
  const command =
    policy.names === 'command'
      ? kind === 'image'
        ? `image ${plan.mode}`
        : `video ${plan.mode}`
      : kind === 'image'
        ? 'gflow_generate_image'
        : 'gflow_generate_video';
  const payload = {
    kind,
    task_id: taskId,
    command,
    input: { ...input, profile: profile.name },
    expanded_prompt: expanded,
    ...outputTarget,
    params: paramsOf(kind, input),
    // The credit ledger (issue 24): the surface, and the budgets as this process resolved them.
    surface: context.surface,
    credit_budget: creditBudgetOf(settings, input.max_credits),
    // Whoever claims a wait=false row (a worker started with other settings, perhaps) runs it with these.
    ...(input.wait ? {} : { job_settings: jobSettingsOf(settings) }),
  } as GenerationTaskPayload;
  runtime.catalog.tasks.create({
    taskId,
    profile: profile.name,
    taskType: plan.mode,
    payload: payload as unknown as Record<string, unknown>,
  });

  if (!input.wait && runtime.background) {
    // The CLI: a detached worker process runs it (the row is the truth for every surface).
    try {
      runtime.background.launch({ taskId, profile: profile.name, logsDir: runtime.layout.logsDir });
    } catch (error) {
      runtime.catalog.tasks.cancel(taskId);
      throw error;
    }
    return { status: 'pending', task_id: taskId, task_type: plan.mode };
  }
  if (!input.wait) {
    const controller = new AbortController();
    const done = runGenerationTask(runtime, taskId, { signal: controller.signal }).catch((error: unknown) => {
      runtime.logger.error('background generation crashed', { task_id: taskId, error: String(error) });
    });
    runtime.jobs.add({ taskId, controller, done });
    return { status: 'pending', task_id: taskId, task_type: plan.mode };
  }
  // The first word of a waited call names its task: a caller whose call is aborted (a client's
  // timeout, a dropped connection) still knows which task to look up.
  context.onProgress?.({ phase: 'queued', message: `task ${taskId}` });
  return runGenerationTask(runtime, taskId, { signal: context.signal, onProgress: context.onProgress });
}

const SPEND_NOTE =
  'Images draw on Flow\'s free daily per-model quota; video spends Flow credits. Checked before anything is sent: an invalid request spends nothing. Flow\'s credit quote is read before the click (credits_quoted; credits_spent when a balance read measures it); dry_run=true returns {status:"estimated", credits_quoted, balance, plan} without submitting; max_credits, GFLOW_CLI_MAX_CREDITS_PER_CALL and GFLOW_CLI_DAILY_CREDIT_BUDGET refuse an over-budget submit before the click (budget-exceeded, exit 40; an unreadable quote under a budget is refused too).';

export const generateImage = defineOperation({
  name: 'generateImage',
  mcpName: 'gflow_generate_image',
  title: 'Generate images',
  description: `Text-to-image or image-to-image (reference_images) with Nano Banana on Google Flow, in the profile's own browser; downloads the files and records them in the catalog. On an account whose Flow composer is agent-only, text-to-image goes through Flow's chat agent (aspect, count and model set in its settings for the run and restored; a credit confirmation approved only when it quotes what was asked; ui_arm:"agent-only", seed 0); references and characters are refused there (36) before anything is clicked. Returns {status:"completed", task_id, flow_project_id, flow_media_id, files[], seed, params} or {status:"failed", task_id, error}. ${SPEND_NOTE}`,
  kind: 'spend',
  usesBrowser: true,
  input: generateImageInput,
  output: generationResult,
  handler: (input: z.output<typeof generateImageInput>, context) => submitGeneration('image', input, context),
});

export const generateVideo = defineOperation({
  name: 'generateVideo',
  mcpName: 'gflow_generate_video',
  title: 'Generate videos',
  description: `Veo / Omni video on Google Flow: t2v from text, i2v from initial_frame (and end_frame), r2v from reference_images or saved characters. Pass a generated image's media id as initial_frame to chain image → video. On an agent-only Flow composer, one-clip text-to-video goes through Flow's chat agent (as in gflow_generate_image); i2v, r2v, characters, count > 1, Omni 1.2 Flash, duration and resolution are refused there (36) before anything is clicked. ui_mode="agentic" is a 400. Returns the same task envelope as gflow_generate_image. ${SPEND_NOTE}`,
  kind: 'spend',
  usesBrowser: true,
  input: generateVideoInput,
  output: generationResult,
  handler: (input: z.output<typeof generateVideoInput>, context) => submitGeneration('video', input, context),
});
