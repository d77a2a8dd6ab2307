import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  BadParameterError,
  ConfigurationError,
  ReferenceNotFoundError,
  exitCodeOf,
  fromProblem,
  type ProblemDetails,
} from '@gflow/errors';
import { VIDEO_ASPECTS, findVideoModel } from '@gflow/flow-facts';
import { abortableSleep } from '@gflow/lease/limits';
import { z } from 'zod';
import { resolveProfile } from '../home/profiles.js';
import { confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { parseJitter } from './batchOperation.js';
import { withProfileBrowser } from './browserContext.js';
import { type GenerateVideoInput, generateVideoInput, planVideo, submitGeneration } from '../generation/index.js';
import { flowId, profileParam } from '../schemas/params.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';

/** The longest chain gflow makes (a safety cap; `max_links` lowers it). */
export const MAX_CHAIN_LINKS = 20;

const { prompt, duration } = generateVideoInput.shape;

const chainLink = z.object({
  prompt,
  model: z.string().trim().min(1).optional(),
  duration: duration,
  aspect: z.enum(VIDEO_ASPECTS).optional(),
});
export type ChainLinkInput = z.output<typeof chainLink>;

export const generateChainInput = z.object({
  links: z
    .array(chainLink)
    .min(1)
    .max(MAX_CHAIN_LINKS)
    .optional()
    .describe(
      'The story, one clip per link: link 1 is text-to-video, each later link image-to-video from the last frame of the clip before. Omit with resume_from.',
    ),
  resume_from: z
    .string()
    .trim()
    .regex(/^[\w-]{1,128}$/)
    .optional()
    .describe('A chain id: continue it — finished links are not made (or billed) again.'),
  aspect: z.enum(VIDEO_ASPECTS).default('9:16').describe('Aspect of links that set none: 9:16 (default) or 16:9.'),
  model: z.string().trim().min(1).optional().describe('Model of links that set none (Veo models; Omni is refused).'),
  max_links: z.number().int().min(1).max(MAX_CHAIN_LINKS).default(10).describe('Refuse a longer chain (default 10).'),
  jitter: z
    .string()
    .trim()
    .optional()
    .describe('Pause between links: MIN-MAX seconds, N or 0 (GFLOW_CLI_JITTER_RANGE).'),
  dry_run: z.boolean().default(false).describe('Only check and print the plan; nothing is sent.'),
  quote: z
    .boolean()
    .default(false)
    .describe(
      "With dry_run: also read Flow's price of each link in the composer (a text-to-video estimate per distinct model, duration and aspect; nothing is submitted, a project may be created).",
    ),
  out_dir: z
    .string()
    .trim()
    .min(1)
    .max(1024)
    .optional()
    .describe('Where the clips and frames go (MCP: inside the output directory).'),
  project: flowId('project').optional().describe('The Flow project for every link (else one new project).'),
  profile: profileParam,
  wait: z
    .boolean()
    .default(true)
    .describe('false: start the chain and return its chain_id at once (gflow_chain_status).'),
});
export type GenerateChainInput = z.output<typeof generateChainInput>;

const linkResult = z.looseObject({
  index: z.number().int().nonnegative(),
  prompt: z.string(),
  mode: z.enum(['t2v', 'i2v']),
  status: z.enum(['planned', 'pending', 'done', 'failed']),
  /** Flow's quote for this link (dry_run + quote): its text-to-video price with the link's model, duration and aspect [U for i2v]. */
  credits_quoted: z.number().nullable().optional(),
  task_id: z.string().nullable().optional(),
  flow_media_id: z.string().nullable().optional(),
  file: z.string().nullable().optional(),
  /** The last frame taken from this link's clip (the next link's start frame). */
  frame: z.string().nullable().optional(),
  error: z.unknown().optional(),
});

export const chainResult = z.looseObject({
  status: z.enum(['planned', 'pending', 'running', 'completed', 'failed']),
  chain_id: z.string().nullable(),
  flow_project_id: z.string().nullable(),
  links: z.array(linkResult),
  /** Links made by this call (a resumed chain skips the finished ones). */
  made: z.number().int().nonnegative(),
  exit_code: z.number().int().nonnegative(),
  /** The credits the chain will spend, from Flow's own quotes (dry_run + quote); null when not read or unreadable. */
  credits_quoted: z.number().nullable(),
});
/** What `generateChain` and `chainStatus` return: the chain id, its status, and each link with its task, media and files. */
export type ChainResult = z.output<typeof chainResult>;
type LinkResult = z.output<typeof linkResult>;

interface ChainSpec {
  readonly links: ReadonlyArray<{ prompt: string; model?: string; duration?: number; aspect: string }>;
  readonly project: string | null;
  readonly out_dir: string | null;
}

interface ChainState {
  project: string | null;
  links: LinkResult[];
}

const bad = (parameter: string, detail: string): never => {
  throw new BadParameterError(detail, { extensions: { parameter } });
};

/** Every link's generation input, checked before anything is sent (a frame path stands in for the frames to come). */
function planLinks(links: ChainSpec['links']): GenerateVideoInput[] {
  return links.map((link, index) => {
    const model = link.model === undefined ? undefined : findVideoModel(link.model);
    if (link.model !== undefined && model === undefined)
      bad('model', `links[${index}]: unknown video model "${link.model}".`);
    if (model?.family === 'omni')
      bad(
        'model',
        `links[${index}]: chains take Veo models. ${model.label}'s image-to-video requests were never captured, so a chain cannot count on its links starting from the frame before.`,
      );
    const input = generateVideoInput.parse({
      prompt: link.prompt,
      mode: index === 0 ? 't2v' : 'i2v',
      aspect: link.aspect,
      ...(link.model ? { model: link.model } : {}),
      ...(link.duration === undefined ? {} : { duration: link.duration }),
      ...(index === 0 ? {} : { initial_frame: 'chain-frame.png' }),
      wait: true,
    });
    try {
      planVideo(input);
    } catch (error) {
      if (error instanceof BadParameterError)
        throw new BadParameterError(`links[${index}]: ${error.detail}`, { extensions: error.extensions, cause: error });
      throw error;
    }
    return input;
  });
}

function exitOf(error: unknown): number {
  if (error !== null && typeof error === 'object' && typeof (error as ProblemDetails).type === 'string')
    return exitCodeOf(fromProblem(error as ProblemDetails)) || 1;
  return 1;
}

/** Where this chain's files go: out_dir (MCP: confined to the output dir), else `<output>/chains/<id>`. */
function chainDir(input: GenerateChainInput, context: OperationContext, chainId: string): string {
  const { settings } = context.runtime;
  let dir: string;
  if (input.out_dir === undefined) dir = path.join(settings.outputDir, 'chains', chainId);
  else if (SURFACE_POLICY[context.surface].confineOutput)
    dir = confineToOutputDir(settings.outputDir, input.out_dir, { parameter: 'out_dir', kind: 'dir' });
  else dir = path.resolve(input.out_dir);
  fs.mkdirSync(dir, { recursive: true });
  ensureWritableDirectory(dir, 'out_dir');
  return dir;
}

function view(chainId: string | null, state: ChainState, status: ChainResult['status'], made: number): ChainResult {
  const failed = state.links.find((l) => l.status === 'failed');
  return {
    status,
    chain_id: chainId,
    flow_project_id: state.project,
    links: state.links,
    made,
    exit_code: failed === undefined ? 0 : exitOf(failed.error),
    credits_quoted: null,
  };
}

/**
 * A dry run's price: Flow's own quote for each link, read in the composer with nothing submitted
 * (the generation path's dry_run). Image-to-video links are quoted as text-to-video with the same
 * model, duration and aspect — their frame does not exist yet, and no capture says the two prices
 * differ [U]; one estimate per distinct combination.
 */
async function quoteLinks(
  context: OperationContext,
  input: GenerateChainInput & { profile: string },
  state: ChainState,
  spec: ChainSpec,
): Promise<ChainResult> {
  const byCombo = new Map<string, number | null>();
  let project = state.project ?? undefined;
  for (const [index, link] of spec.links.entries()) {
    const key = `${link.model ?? ''}|${link.duration ?? ''}|${link.aspect}`;
    if (!byCombo.has(key)) {
      const estimate = await submitGeneration(
        {
          kind: 'video',
          input: generateVideoInput.parse({
            prompt: link.prompt,
            mode: 't2v',
            aspect: link.aspect,
            ...(link.model ? { model: link.model } : {}),
            ...(link.duration === undefined ? {} : { duration: link.duration }),
            ...(project ? { project } : {}),
            profile: input.profile,
            dry_run: true,
            wait: true,
          }),
        },
        context,
      );
      if (estimate.status !== 'estimated') {
        state.links[index] = { ...(state.links[index] as LinkResult), error: estimate.error ?? null };
        return { ...view(null, state, 'failed', 0), exit_code: exitOf(estimate.error) };
      }
      project ??= typeof estimate.flow_project_id === 'string' ? estimate.flow_project_id : undefined;
      byCombo.set(key, typeof estimate.credits_quoted === 'number' ? estimate.credits_quoted : null);
    }
    (state.links[index] as LinkResult).credits_quoted = byCombo.get(key) ?? null;
  }
  const quotes = state.links.map((l) => l.credits_quoted ?? null);
  state.project = project ?? null;
  return {
    ...view(null, state, 'planned', 0),
    credits_quoted: quotes.includes(null) ? null : quotes.reduce<number>((a, b) => a + (b ?? 0), 0),
  };
}

/** Takes the clip's last frame in the profile's browser and writes it beside the clip. */
async function frameOf(context: OperationContext, profile: string, clip: string): Promise<string> {
  const { lastFrameOf } = await import('@gflow/driver');
  const bytes = fs.readFileSync(clip);
  const frame = await withProfileBrowser(context, profile, (browser) => lastFrameOf(browser, bytes));
  const target = path.join(path.dirname(clip), `${path.parse(clip).name}.last.png`);
  fs.writeFileSync(target, frame.png);
  return target;
}

async function runLinks(
  context: OperationContext,
  chain: { id: string; profile: string; spec: ChainSpec; state: ChainState; dir: string },
  options: { jitterMs: { minMs: number; maxMs: number } },
): Promise<ChainResult> {
  const { runtime } = context;
  const { id, profile, spec, state, dir } = chain;
  const inputs = planLinks(spec.links);
  let made = 0;
  for (const [index, base] of inputs.entries()) {
    const link = state.links[index] as LinkResult;
    if (link.status === 'done') continue;
    const previous = state.links[index - 1];
    let startFrame: string | undefined;
    if (index > 0) {
      if (previous?.file == null) throw new ConfigurationError(`Link ${index} has no clip to continue from.`);
      startFrame =
        previous.frame != null && fs.existsSync(previous.frame)
          ? previous.frame
          : await frameOf(context, profile, previous.file);
      previous.frame = startFrame;
    }
    if (made > 0) {
      const { minMs, maxMs } = options.jitterMs;
      await abortableSleep(minMs + Math.random() * (maxMs - minMs), context.signal, 'the pause between links');
    }
    const label = `link ${index + 1}/${inputs.length}`;
    const onProgress = context.onProgress;
    onProgress?.({ phase: 'queued', message: label });
    const linkContext: OperationContext = {
      ...context,
      ...(onProgress
        ? { onProgress: (event) => onProgress({ ...event, message: `${label}: ${event.message ?? event.phase}` }) }
        : {}),
    };
    const result = await submitGeneration(
      {
        kind: 'video',
        input: {
          ...base,
          ...(startFrame ? { initial_frame: startFrame } : {}),
          ...(state.project ? { project: state.project } : {}),
          profile,
          output: path.join(dir, `link-${index + 1}`),
        },
      },
      linkContext,
    );
    made += 1;
    state.project ??= typeof result.flow_project_id === 'string' ? result.flow_project_id : null;
    if (result.status !== 'completed' || !result.files?.[0]) {
      state.links[index] = {
        ...link,
        status: 'failed',
        task_id: result.task_id ?? null,
        flow_media_id: result.flow_media_id ?? null,
        error: result.error ?? { title: `the link ended ${result.status}` },
      };
      runtime.catalog.chains.update(id, { status: 'failed', state: state as unknown as Record<string, unknown> });
      return view(id, state, 'failed', made);
    }
    const file = result.files[0];
    state.links[index] = {
      ...link,
      status: 'done',
      task_id: result.task_id ?? null,
      flow_media_id: result.flow_media_id ?? null,
      file,
      frame: null,
    };
    // The frame is taken now (the clip is on disk), so a resume never needs the clip again.
    if (index < inputs.length - 1) {
      try {
        (state.links[index] as LinkResult).frame = await frameOf(context, profile, file);
      } catch (error) {
        runtime.catalog.chains.update(id, { status: 'failed', state: state as unknown as Record<string, unknown> });
        throw error;
      }
    }
    runtime.catalog.chains.update(id, { state: state as unknown as Record<string, unknown> });
  }
  runtime.catalog.chains.update(id, { status: 'completed', state: state as unknown as Record<string, unknown> });
  return view(id, state, 'completed', made);
}

/**
 * A video chain (issue #20, the original's `video chain`): link 1 text-to-video, each later link
 * image-to-video from the last frame of the clip before (taken with the browser gflow drives,
 * uploaded under a run-unique name and bound as the Start frame like any local frame). The plan is
 * checked whole first; the chain's state is in the catalog after every link, so resume_from
 * continues after a crash or a failed link without re-spending the finished ones.
 */
export async function runChain(input: GenerateChainInput, context: OperationContext): Promise<ChainResult> {
  const { runtime } = context;
  if ((input.links === undefined) === (input.resume_from === undefined))
    bad('links', 'Give the links of a new chain, or resume_from with the id of one to continue (exactly one).');
  const profile = resolveProfile(runtime.layout, {
    requested: input.profile,
    settings: runtime.settings,
  });
  const jitterMs = parseJitter(input.jitter ?? runtime.settings.jitterRange);
  let chain: { id: string; spec: ChainSpec; state: ChainState };
  if (input.resume_from !== undefined) {
    const row = runtime.catalog.chains.get(input.resume_from);
    if (row === undefined || row.profile !== profile.name)
      throw new ReferenceNotFoundError(`No chain ${input.resume_from} in profile ${profile.name}.`, {
        extensions: { parameter: 'resume_from' },
      });
    chain = { id: row.chainId, spec: row.spec as unknown as ChainSpec, state: row.state as unknown as ChainState };
    for (const link of chain.state.links) if (link.status === 'failed') link.status = 'pending';
  } else {
    const links = (input.links ?? []).map((l) => {
      const model = l.model ?? input.model;
      return {
        prompt: l.prompt,
        ...(model === undefined ? {} : { model }),
        ...(l.duration === undefined ? {} : { duration: l.duration }),
        aspect: l.aspect ?? input.aspect,
      };
    });
    if (links.length > input.max_links)
      bad('max_links', `The chain has ${links.length} links; max_links is ${input.max_links}.`);
    const spec: ChainSpec = { links, project: input.project ?? null, out_dir: input.out_dir ?? null };
    planLinks(spec.links);
    const state: ChainState = {
      project: spec.project ?? runtime.settings.project ?? null,
      links: links.map((l, index) => ({
        index,
        prompt: l.prompt,
        mode: index === 0 ? 't2v' : 'i2v',
        status: input.dry_run ? 'planned' : 'pending',
      })),
    };
    if (input.dry_run)
      return input.quote
        ? quoteLinks(context, { ...input, profile: profile.name }, state, spec)
        : view(null, state, 'planned', 0);
    chain = { id: `ch-${randomUUID()}`, spec, state };
    runtime.catalog.chains.create({
      chainId: chain.id,
      profile: profile.name,
      spec: spec as unknown as Record<string, unknown>,
      state: state as unknown as Record<string, unknown>,
    });
  }
  if (input.dry_run) return view(chain.id, chain.state, 'planned', 0);
  if (chain.state.links.every((l) => l.status === 'done')) return view(chain.id, chain.state, 'completed', 0);
  const dir = chainDir({ ...input, ...(chain.spec.out_dir ? { out_dir: chain.spec.out_dir } : {}) }, context, chain.id);
  const run = { ...chain, profile: profile.name, dir };
  if (!input.wait) {
    const controller = new AbortController();
    const done = runLinks({ ...context, signal: controller.signal }, run, { jitterMs }).catch((error: unknown) => {
      runtime.logger.error('background chain failed', { chain_id: chain.id, error: String(error) });
      runtime.catalog.chains.update(chain.id, {
        status: 'failed',
        state: chain.state as unknown as Record<string, unknown>,
      });
    });
    runtime.jobs.add({ taskId: chain.id, controller, done });
    return view(chain.id, chain.state, 'pending', 0);
  }
  return runLinks(context, run, { jitterMs });
}

export const generateChain = defineOperation({
  name: 'generateChain',
  mcpName: 'gflow_generate_chain',
  title: 'Generate a chain of clips',
  description: `A story longer than one clip: link 1 is text-to-video, each later link image-to-video from the last frame of the clip before (gflow takes it from the downloaded clip and uploads it as the Start frame). 1–${MAX_CHAIN_LINKS} links of {prompt, model?, duration?, aspect?}; Veo models only. The plan is checked whole before anything is sent (dry_run: only that; with quote=true also Flow's price per link, nothing submitted). The chain's progress is kept in the catalog after every link: resume_from=<chain_id> continues after a crash or a failed link without re-making (or re-billing) finished links. wait=false returns the chain_id at once (gflow_chain_status). Spends Flow credits per link. Returns {status, chain_id, flow_project_id, links[{index, prompt, mode, status, task_id, flow_media_id, file, frame}], made, exit_code}.`,
  kind: 'spend',
  usesBrowser: true,
  input: generateChainInput,
  output: chainResult,
  handler: (input, context) => runChain(input, context),
});

export const chainStatus = defineOperation({
  name: 'chainStatus',
  mcpName: 'gflow_chain_status',
  title: 'Show a chain',
  description:
    'A video chain from the local catalog: its links, their clips and frames, and how far it got. Spends nothing.',
  kind: 'read',
  usesBrowser: false,
  input: z.object({
    chain_id: z
      .string()
      .trim()
      .regex(/^[\w-]{1,128}$/)
      .describe('The chain id.'),
  }),
  output: chainResult,
  handler: async (input, context) => {
    const row = context.runtime.catalog.chains.get(input.chain_id);
    if (row === undefined)
      throw new ReferenceNotFoundError(`No chain ${input.chain_id} in the catalog.`, {
        extensions: { parameter: 'chain_id' },
      });
    const state = row.state as unknown as ChainState;
    return view(row.chainId, state, row.status, 0);
  },
});

/** `video chain FILE.jsonl`: one link per line, `{prompt, model?, duration?, aspect?}`; blank and `#` lines skipped. */
export function parseChainFile(text: string): ChainLinkInput[] {
  const links: ChainLinkInput[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      bad(
        'file',
        `Line ${i + 1} is not JSON (a chain file has one {"prompt", "model"?, "duration"?, "aspect"?} per line).`,
      );
    }
    const parsed = chainLink.strict().safeParse(value);
    if (!parsed.success)
      bad(
        'file',
        `Line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'link'}: ${x.message}`).join('; ')}.`,
      );
    else links.push(parsed.data);
  }
  if (links.length === 0) bad('file', 'The chain file has no links.');
  return links;
}
