import { BadParameterError, fromProblem, exitCodeOf, type ProblemDetails } from '@gflow/errors';
import { abortableSleep } from '@gflow/lease/limits';
import { z } from 'zod';
import {
  type GenerateImageInput,
  type GenerationResult,
  generateImageInput,
  generationResult,
  outputTargetFor,
  planImage,
  submitGeneration,
} from '../generation/index.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';

/** The most prompts one run takes (the original's ceiling). */
export const MAX_BATCH_ITEMS = 50;

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
    .describe(`The prompts, 1–${MAX_BATCH_ITEMS}; each may set its own model, aspect, count and output.`),
  fail_fast: z.boolean().default(false).describe('Stop at the first failed prompt (default: go on with the rest).'),
  jitter: z
    .string()
    .trim()
    .optional()
    .describe('Pause between submits: MIN-MAX seconds, N, or 0. Omitted: GFLOW_CLI_JITTER_RANGE (0.5-1.5).'),
});
/** `generateBatch`'s input once parsed (defaults applied); `gflow.run` takes `OperationInput<'generateBatch'>`. */
export type GenerateBatchInput = z.output<typeof generateBatchInput>;

export const generateBatchResult = z.looseObject({
  status: z.enum(['completed', 'partial', 'failed']),
  flow_project_id: z.string().nullable(),
  /** One generation envelope per prompt, in order; `skipped` after a --fail-fast stop. */
  items: z.array(z.union([generationResult, z.looseObject({ status: z.literal('skipped'), prompt: z.string() })])),
  /** The pause before each submit after the first, measured (ms). */
  pauses_ms: z.array(z.number().int().nonnegative()),
  /** The highest per-prompt exit code (0 when every prompt completed). */
  exit_code: z.number().int().nonnegative(),
  /** The quotes Flow showed, summed over the prompts that reached the click (null when one could not be read). */
  credits_quoted: z.number().int().nonnegative().nullable().optional(),
});
/** What `generateBatch` returns: its status, the Flow project, and each item's own result (files, media, error). */
export type GenerateBatchResult = z.output<typeof generateBatchResult>;

const FAILED = new Set(['failed', 'error', 'cancelled', 'indeterminate', 'rate_limited', 'invalid_tools']);

/** The exit code a failed item's envelope carries (its problem document), 1 when it carries none. */
function exitOf(result: GenerationResult): number {
  if (result.status === 'completed' || result.status === 'pending' || result.status === 'estimated') return 0;
  const error = result.error as ProblemDetails | undefined;
  if (error !== undefined && typeof error === 'object' && typeof error.type === 'string')
    return exitCodeOf(fromProblem(error)) || 1;
  return 1;
}

/**
 * The "run many" home (issue #20): every prompt is validated before anything is sent; then one
 * profile session and one Flow project for the whole run (the project named, else the one the
 * first prompt creates, once), a random pause within the jitter range between submits, the rate
 * limiter waited on (never a refusal halfway through), and each prompt its own task row,
 * catalogued and downloaded as it finishes — a crash mid-run leaves every finished item on record.
 */
export async function runBatch(input: GenerateBatchInput, context: OperationContext): Promise<GenerateBatchResult> {
  const { runtime } = context;
  const jitter = parseJitter(input.jitter ?? runtime.settings.jitterRange);
  const { items: list, fail_fast: failFast, jitter: _jitter, ...common } = input;
  const inputs: GenerateImageInput[] = list.map((item, index) => {
    const one = {
      ...common,
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
      if (error instanceof BadParameterError) {
        throw new BadParameterError(`items[${index}]: ${error.detail}`, {
          extensions: { ...error.extensions, item: index },
          cause: error,
        });
      }
      throw error;
    }
    return one;
  });
  const outputs = inputs.flatMap((i) => (i.output ? [i.output] : []));
  if (new Set(outputs).size !== outputs.length)
    throw new BadParameterError('Two prompts name the same output file.', { extensions: { parameter: 'output' } });

  let project: string | undefined = common.project ?? (common.project_name ? undefined : runtime.settings.project);
  const results: GenerateBatchResult['items'] = [];
  const pauses: number[] = [];
  let stop = false;
  for (const [index, one] of inputs.entries()) {
    if (stop) {
      results.push({ status: 'skipped', prompt: one.prompt });
      continue;
    }
    if (index > 0) {
      const wanted = jitter.minMs + Math.random() * (jitter.maxMs - jitter.minMs);
      const started = Date.now();
      await abortableSleep(wanted, context.signal, 'the pause between prompts');
      pauses.push(Date.now() - started);
    }
    await takeToken(context);
    const item = `item ${index + 1}/${inputs.length}`;
    const onProgress = context.onProgress;
    const itemContext: OperationContext = {
      ...context,
      ...(onProgress
        ? { onProgress: (event) => onProgress({ ...event, message: `${item}: ${event.message ?? event.phase}` }) }
        : {}),
    };
    onProgress?.({ phase: 'queued', message: item });
    const { project_name: projectName, ...rest } = one;
    const result = await submitGeneration(
      {
        kind: 'image',
        input: project ? { ...rest, project } : { ...rest, ...(projectName ? { project_name: projectName } : {}) },
      },
      itemContext,
      { rateLimited: false },
    );
    results.push(result);
    if (typeof result.flow_project_id === 'string' && result.flow_project_id !== '') project ??= result.flow_project_id;
    if (FAILED.has(result.status) && failFast) stop = true;
    if (result.status === 'cancelled' || result.status === 'indeterminate') stop = true;
  }
  const generated = results.filter((r): r is GenerationResult => r.status !== 'skipped');
  const exit = Math.max(0, ...generated.map(exitOf));
  // A dry run (dry_run) estimates every prompt: `estimated` items count as done.
  const done = generated.filter((r) => r.status === 'completed' || r.status === 'estimated').length;
  const quoted = generated.filter((r) => r.credits_quoted !== undefined).map((r) => r.credits_quoted ?? null);
  return {
    status: done === inputs.length ? 'completed' : done === 0 ? 'failed' : 'partial',
    flow_project_id: project ?? null,
    items: results,
    pauses_ms: pauses,
    exit_code: exit,
    ...(quoted.length === 0
      ? {}
      : { credits_quoted: quoted.includes(null) ? null : quoted.reduce<number>((a, b) => a + (b ?? 0), 0) }),
  };
}

/** On a rate-limited surface (MCP, HTTP) a batch waits for its token instead of failing halfway. */
async function takeToken(context: OperationContext): Promise<void> {
  const { runtime } = context;
  if (!SURFACE_POLICY[context.surface].rateLimit) return;
  for (;;) {
    const taken = runtime.limiter.tryTake();
    if (taken.ok) return;
    context.onProgress?.({
      phase: 'queued',
      message: `rate limited: next submit in ${Math.ceil(taken.retryAfterMs / 1000)} s`,
    });
    await abortableSleep(taken.retryAfterMs, context.signal, 'waiting for the rate limiter');
  }
}

export const generateBatch = defineOperation({
  name: 'generateBatch',
  mcpName: 'gflow_generate_batch',
  title: 'Generate many images',
  description: `Text-to-image for 1–${MAX_BATCH_ITEMS} prompts in one run: every prompt is checked before anything is sent, then they go one after another in one browser session and one Flow project (project, else project_name, else the one the first prompt creates), with a random pause (jitter, default 0.5–1.5 s) between submits. Each prompt is its own task, catalogued and downloaded as it finishes. Returns {status: completed|partial|failed, flow_project_id, items[] (one generation envelope per prompt), pauses_ms[], exit_code, credits_quoted}. dry_run=true estimates every prompt (each item {status:"estimated", credits_quoted, …}; nothing is submitted). Images draw on Flow's free daily per-model quota.`,
  kind: 'spend',
  usesBrowser: true,
  input: generateBatchInput,
  output: generateBatchResult,
  handler: (input, context) => runBatch(input, context),
});
