import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';
import { outputTargetFor, planImage } from '../generation/index.js';
import { type GenerateImageInput, generateImageInput } from '../generation/schemas.js';
import { resumedProfile, runProfileOf } from '../fleet/runProfile.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { resumeRun, stepCountOf, submitRun } from '../runs/index.js';
import { type GenerateBatchResult, generateBatchResult } from '../runs/runResults.js';
import { RUN_ID, idempotencyKeyParam, runWaitParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';
import { MAX_BATCH_ITEMS } from './runLimits.js';

/** `MIN-MAX` seconds, a single `N`, or `0` (GFLOW_CLI_JITTER_RANGE / --jitter). */
export function parseJitter(value: string): { readonly minMs: number; readonly maxMs: number } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?))?\s*$/.exec(value);
  if (m === null)
    throw new BadParameterError(`jitter takes MIN-MAX seconds, a single N, or 0; not ${JSON.stringify(value)}.`, {
      extensions: { parameter: 'jitter' },
    });
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (max < min || max > 600)
    throw new BadParameterError(`jitter ${value}: MIN must not exceed MAX, and MAX is at most 600 s.`, {
      extensions: { parameter: 'jitter' },
    });
  return { minMs: Math.round(min * 1000), maxMs: Math.round(max * 1000) };
}

const { prompt, model, aspect, count, output } = generateImageInput.shape;

const batchItem = z.object({
  prompt,
  model: model.removeDefault().optional(),
  aspect: aspect.removeDefault().optional(),
  count: count.removeDefault().optional(),
  output: output.describe('File for this prompt (MCP: inside the output directory).'),
});

const shared = generateImageInput.pick({
  model: true,
  aspect: true,
  count: true,
  tools: true,
  profile: true,
  profile_pool: true,
  project: true,
  project_name: true,
  ui_mode: true,
  dry_run: true,
  max_credits: true,
  output_dir: true,
  overwrite: true,
});

/** The zod schema of `generateBatch`: up to `MAX_BATCH_ITEMS` image prompts run in one session and one Flow project, with the settings they share. */
export const generateBatchInput = shared.extend({
  items: z
    .array(batchItem)
    .min(1)
    .max(MAX_BATCH_ITEMS)
    .optional()
    .describe(
      `The prompts, 1–${MAX_BATCH_ITEMS}; each may set its own model, aspect, count and output. Omit with resume_from.`,
    ),
  resume_from: z
    .string()
    .trim()
    .regex(RUN_ID)
    .optional()
    .describe(
      "A batch's task id: continue it — finished prompts are not made (or billed) again, a prompt that may have been submitted is recovered by its ids, never submitted twice.",
    ),
  fail_fast: z.boolean().default(false).describe('Stop at the first failed prompt (default: go on with the rest).'),
  jitter: z
    .string()
    .trim()
    .optional()
    .describe('Pause between submits: MIN-MAX seconds, N, or 0. Omitted: GFLOW_CLI_JITTER_RANGE (0.5-1.5).'),
  wait: runWaitParam('batch'),
  idempotency_key: idempotencyKeyParam,
});
/** `generateBatch`'s input once parsed (defaults applied); `gflow.run` takes `OperationInput<'generateBatch'>`. */
export type GenerateBatchInput = z.output<typeof generateBatchInput>;

/** Every prompt's generation input, checked before anything is sent (a refusal names its item). */
function itemInputs(input: GenerateBatchInput, context: OperationContext, profile: string): GenerateImageInput[] {
  const {
    items = [],
    fail_fast: _f,
    jitter: _j,
    resume_from: _r,
    wait: _w,
    idempotency_key: _k,
    profile_pool: _p,
    ...common
  } = input;
  const inputs = items.map((item, index) => {
    const one = {
      ...common,
      profile,
      prompt: item.prompt,
      model: item.model ?? common.model,
      aspect: item.aspect ?? common.aspect,
      count: item.count ?? common.count,
      // An item's own output file wins over the batch's output_dir.
      ...(item.output ? { output: item.output, output_dir: undefined } : {}),
      wait: true,
    } as GenerateImageInput;
    try {
      planImage(one);
      outputTargetFor(one, context);
    } catch (error) {
      if (!(error instanceof BadParameterError)) throw error;
      throw new BadParameterError(`items[${index}]: ${error.detail}`, {
        extensions: { ...error.extensions, item: index },
        cause: error,
      });
    }
    return one;
  });
  const outputs = inputs.flatMap((i) => (i.output ? [i.output] : []));
  if (new Set(outputs).size !== outputs.length)
    throw new BadParameterError('Two prompts name the same output file.', { extensions: { parameter: 'output' } });
  return inputs;
}

/**
 * The "run many" home (issue #20), as a durable run (issue 38): every prompt is validated before
 * anything is sent; then one profile session and one Flow project for the whole run (the project
 * named, else the one the first prompt creates), a random pause within the jitter range between
 * submits, the rate limiter waited on, and each prompt a step of its own — its state written
 * before its submit, so a resumed batch never pays twice for a prompt.
 */
export async function runBatch(input: GenerateBatchInput, context: OperationContext): Promise<GenerateBatchResult> {
  const { runtime } = context;
  if ((input.items === undefined) === (input.resume_from === undefined))
    throw new BadParameterError(
      'Give the prompts of a new batch, or resume_from with the id of one to continue (exactly one).',
      {
        extensions: { parameter: 'items' },
      },
    );
  if (input.resume_from !== undefined)
    return (await resumeRun(context, input.resume_from, {
      wait: input.wait,
      kind: 'batch',
      profile: await resumedProfile(context, input.profile),
    })) as GenerateBatchResult;
  const { profile, pool } = await runProfileOf(context, { ...input, kind: 'image' });
  const jitter = parseJitter(input.jitter ?? runtime.settings.jitterRange);
  const names = SURFACE_POLICY[context.surface].names;
  const run = {
    run: 'batch' as const,
    command: names === 'command' ? 'image batch' : 'gflow_generate_batch',
    surface: context.surface,
    profile,
    jitter: { min_ms: jitter.minMs, max_ms: jitter.maxMs },
    project: input.project ?? (input.project_name ? null : (runtime.settings.project ?? null)),
    items: itemInputs(input, context, profile),
    fail_fast: input.fail_fast,
  };
  return (await submitRun(context, run, {
    wait: input.wait,
    idempotencyKey: input.idempotency_key,
    pool,
  })) as GenerateBatchResult;
}

export const generateBatch = defineOperation({
  name: 'generateBatch',
  mcpName: 'gflow_generate_batch',
  title: 'Generate many images',
  description: `Text-to-image for 1–${MAX_BATCH_ITEMS} prompts in one run: every prompt is checked before anything is sent, then they go one after another in one browser session and one Flow project (project, else project_name, else the one the first prompt creates), with a random pause (jitter, default 0.5–1.5 s) between submits. The run is a task (task_id; wait=false returns it at once; tasks/get, tasks/cancel — a cancel stops it before its next submit) and each prompt a step of its own, catalogued and downloaded as it finishes; resume_from=<task_id> continues it without paying twice for a prompt. idempotency_key makes a repeated call return the earlier run. Returns {status: completed|estimated|partial|failed|pending, task_id, flow_project_id, items[] (one generation envelope per prompt), pauses_ms[], exit_code, credits_quoted, made, error (the first failure)}. dry_run=true estimates every prompt (status "estimated", each item {status:"estimated", credits_quoted, …}; nothing is submitted). Images draw on Flow's free daily per-model quota.`,
  kind: 'spend',
  usesBrowser: true,
  // wait=false writes its task row and answers at once; tasks/get, tasks/cancel and the task tools follow it.
  task: 'optional',
  input: generateBatchInput,
  output: generateBatchResult,
  steps: async (input, tasks) =>
    input.items?.length ?? (input.resume_from ? stepCountOf((await tasks.get(input.resume_from))?.payload) : undefined),
  handler: (input, context) => runBatch(input, context),
});
