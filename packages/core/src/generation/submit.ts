import { randomUUID } from 'node:crypto';
import { ConfigurationError, hasErrorCode, toErrorEnvelopeBody } from '@gflow/errors';
import { rateLimitedError } from '@gflow/lease/limits';
import { runProfileOf } from '../fleet/runProfile.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import { llmEndpointOf } from '../promptTools/llmClient.js';
import { expandPrompt, loadPromptTools } from '../promptTools/promptTools.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { dispatchTask } from '../runtime/taskDispatch.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { resolveInputs } from './inputs.js';
import { outputTargetFor } from './outputTarget.js';
import { inlineImagesDir, withLocalImages } from './dataUrlImages.js';
import { resolveExtendSource } from './extendSource.js';
import { type GenerationPlan, planExtend, planImage, planVideo } from './plan.js';
import { GENERATION_REQUEST_VERSION, type GenerationRequest, generationRequest, jobSettingsOf } from './request.js';
import { claimAndRunGeneration } from './run.js';
import type { ExtendVideoInput, GenerateImageInput, GenerateVideoInput, GenerationResult } from './schemas.js';
import { creditBudgetOf } from './spend.js';

/** A request as a surface hands it over: an image, a video or an extension, with the operation's parsed input. */
export type GenerationAsk =
  | { readonly kind: 'image'; readonly input: GenerateImageInput }
  | { readonly kind: 'video'; readonly input: GenerateVideoInput }
  | { readonly kind: 'extend'; readonly input: ExtendVideoInput };

/** The plan of a request: every rule that needs no browser, once. */
export function planOf(ask: GenerationAsk): GenerationPlan {
  if (ask.kind === 'image') return planImage(ask.input);
  return ask.kind === 'video' ? planVideo(ask.input) : planExtend(ask.input);
}

/** The prompt after prompt tools; a bad tool is the caller's `invalid_tools`, not a failure of gflow. */
async function expandedPrompt(ask: GenerationAsk, context: OperationContext): Promise<string | GenerationResult> {
  const { runtime } = context;
  try {
    const tools = loadPromptTools(runtime.layout.toolsDir);
    const expanded = await expandPrompt(ask.input.prompt, ask.input.tools ?? [], tools, {
      llm: llmEndpointOf(runtime.settings),
      signal: context.signal,
    });
    return expanded.expanded;
  } catch (error) {
    if (hasErrorCode(error, 'bad-parameter')) return { status: 'invalid_tools', error: (error as Error).message };
    throw error;
  }
}

function refuseNoSpend(context: OperationContext): void {
  if (context.runtime.settings.noSpend)
    throw new ConfigurationError('No-spend mode is on (GFLOW_MCP_NO_SPEND / --no-spend): generation is disabled.', {
      remediationHint: 'Unset GFLOW_MCP_NO_SPEND or drop --no-spend to generate.',
    });
}

/** The spending brake where the surface policy says so (MCP, HTTP); undefined when a token was taken. */
function takeToken(context: OperationContext): GenerationResult | undefined {
  const { runtime } = context;
  if (!SURFACE_POLICY[context.surface].rateLimit) return undefined;
  const taken = runtime.limiter.tryTake();
  if (taken.ok) return undefined;
  const { rateLimitCapacity, rateLimitRefillSeconds } = runtime.settings;
  const error = rateLimitedError(taken.retryAfterMs, rateLimitCapacity, rateLimitRefillSeconds * 1000);
  return { status: 'rate_limited', error: toErrorEnvelopeBody(error) };
}

/** The parameters a result reports (`params`), as asked. */
function paramsOf(ask: GenerationAsk): Record<string, unknown> {
  if (ask.kind === 'extend')
    return { prompt: ask.input.prompt, media_id: ask.input.media_id, model: ask.input.model ?? null };
  const { prompt, model, aspect, count } = ask.input;
  if (ask.kind === 'image') return { prompt, model, aspect, count };
  const { mode, duration, resolution } = ask.input;
  return {
    prompt,
    mode,
    model: model ?? null,
    aspect,
    count,
    duration: duration ?? null,
    resolution: resolution ?? null,
  };
}

/** The command or tool that asked, as the surface names it. */
function commandOf(ask: GenerationAsk, plan: GenerationPlan, context: OperationContext): string {
  if (SURFACE_POLICY[context.surface].names === 'command')
    return ask.kind === 'extend' ? 'video extend' : `${ask.kind} ${plan.mode}`;
  if (ask.kind === 'extend') return 'gflow_extend_video';
  return ask.kind === 'image' ? 'gflow_generate_image' : 'gflow_generate_video';
}

/** The ask with every inline image (a data URL) stored in the home as a file: the row names files, never bytes. */
function withInlineImagesStored(ask: GenerationAsk, context: OperationContext): GenerationAsk {
  const dir = inlineImagesDir(context.runtime.layout.cacheDir);
  return { ...ask, input: withLocalImages(ask.input, dir) } as GenerationAsk;
}

/** What the checks before the row resolved: the plan, the prompt, the profile, the inputs, the output. */
interface Checked {
  readonly plan: GenerationPlan;
  readonly expanded: string;
  readonly profile: string;
  /** The fleet's pool the profile was routed from (it may move on within the pool if Flow refuses it). */
  readonly pool?: string;
  /** The request's fields the checks resolved (the row adds the task id, the input and the plan). */
  readonly request: Readonly<Record<string, unknown>>;
}

/**
 * Every check that needs no browser, before a token is taken or a task queued: the rules, prompt
 * tools, output rules, the no-spend gate, the profile, and each reference and frame read once —
 * an unknown profile, a media id the catalog does not have, a frame file that is not there fail
 * now, with their own code, on wait=false as on wait=true.
 */
async function check(ask: GenerationAsk, context: OperationContext): Promise<Checked | GenerationResult> {
  const { runtime } = context;
  const plan = planOf(ask);
  const expanded = await expandedPrompt(ask, context);
  if (typeof expanded !== 'string') return expanded;
  const output = outputTargetFor(ask.input, context);
  refuseNoSpend(context);
  // An extension continues its source's clip on its account: it names a profile, never a pool.
  const { profile, pool } = await runProfileOf(context, {
    ...ask.input,
    kind: ask.kind === 'image' ? 'image' : 'video',
  });
  const inputs = await resolveInputs(runtime.catalog, plan, profile);
  const source = plan.kind === 'extend' ? { source: resolveExtendSource(runtime.catalog, plan, profile) } : {};
  const request = {
    ...source,
    schema_version: GENERATION_REQUEST_VERSION,
    command: commandOf(ask, plan, context),
    surface: context.surface,
    expanded_prompt: expanded,
    inputs,
    output,
    params: paramsOf(ask),
    credit_budget: creditBudgetOf(runtime.settings, ask.input.max_credits),
    // Whoever claims a wait=false row (a worker started with other settings, perhaps) runs it with these.
    ...(ask.input.wait ? {} : { job_settings: jobSettingsOf(runtime.settings) }),
  };
  return { plan, expanded, profile, request, ...(pool === undefined ? {} : { pool }) };
}

/** Where a queued request goes in the queue: a top-level row, or a step of a run; and the caller's key. */
export interface RowPlacement {
  readonly parent?: { readonly taskId: string; readonly stepIndex: number };
  readonly idempotencyKey?: string | undefined;
}

/** The task row: the resolved request, written before anything runs (the job's one truth). */
async function writeRequest(
  ask: GenerationAsk,
  checked: Checked,
  context: OperationContext,
  placement: RowPlacement,
): Promise<GenerationRequest> {
  const { profile_pool: _pool, ...asked } = ask.input as typeof ask.input & { readonly profile_pool?: string };
  const input = { ...asked, profile: checked.profile };
  // Checked like user input before it is written: a row the worker could not read is never queued.
  const request = generationRequest.parse({
    ...checked.request,
    task_id: randomUUID(),
    ...ask,
    input,
    plan: checked.plan,
  });
  await context.runtime.queue.create({
    taskId: request.task_id,
    profile: checked.profile,
    taskType: checked.plan.mode,
    payload: request as unknown as Record<string, unknown>,
    ...(placement.parent ? { parent: placement.parent } : {}),
    ...(placement.idempotencyKey === undefined ? {} : { idempotencyKey: placement.idempotencyKey }),
    ...(checked.pool === undefined ? {} : { pool: checked.pool }),
  });
  return request;
}

/**
 * Checks a request and writes its row without running it: a run queues its steps this way (each
 * step a row of its own, placed under the run), then claims and runs them itself. A refusal of
 * the prompt tools comes back as its envelope; every other refusal is thrown.
 */
export async function queueGeneration(
  given: GenerationAsk,
  context: OperationContext,
  placement: RowPlacement = {},
): Promise<GenerationRequest | GenerationResult> {
  const ask = withInlineImagesStored(given, context);
  const checked = await check(ask, context);
  if ('status' in checked) return checked;
  return writeRequest(ask, checked, context, placement);
}

/**
 * The generation path shared by every surface: check (plan, prompt tools, output, no-spend,
 * profile, inputs), the token bucket (where the surface policy says so), the task row, then the
 * run — inline for wait=true, else in a worker or this process's background.
 */
export async function submitGeneration(
  given: GenerationAsk,
  context: OperationContext,
  options: {
    readonly rateLimited?: boolean;
    readonly idempotencyKey?: string | undefined;
    /** What an earlier call with the same idempotency key (on the resolved profile) made, if any. */
    readonly earlier?: (profile: string, key: string) => Promise<GenerationResult | undefined>;
  } = {},
): Promise<GenerationResult> {
  const ask = withInlineImagesStored(given, context);
  const checked = await check(ask, context);
  if ('status' in checked) return checked;
  const key = ask.input.idempotency_key;
  const earlier = key === undefined ? undefined : await options.earlier?.(checked.profile, key);
  if (earlier !== undefined) return earlier;
  // A batch takes its tokens itself (it waits for one instead of failing halfway).
  const refused = options.rateLimited === false ? undefined : takeToken(context);
  if (refused !== undefined) return refused;
  const request = await writeRequest(ask, checked, context, { idempotencyKey: key ?? options.idempotencyKey });
  const { runtime } = context;
  return dispatchTask(context, {
    taskId: request.task_id,
    profile: request.input.profile,
    wait: request.input.wait,
    pending: { status: 'pending', task_id: request.task_id, task_type: request.plan.mode },
    settled: finalEnvelopeOf,
    run: (run) => claimAndRunGeneration(runtime, request.task_id, request.input.profile, run),
  });
}
