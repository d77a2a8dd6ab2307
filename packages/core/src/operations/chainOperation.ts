import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import { VIDEO_ASPECTS, findVideoModel } from '@gflow/flow-facts';
import { z } from 'zod';
import { planVideo, submitGeneration } from '../generation/index.js';
import { type GenerateVideoInput, generateVideoInput } from '../generation/schemas.js';
import { resumedProfile, runProfileOf } from '../fleet/runProfile.js';
import { confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { isRunPayload, resumeRun, runView, stepCountOf, submitRun } from '../runs/index.js';
import { type ChainResult, type LinkResult, chainResult } from '../runs/runResults.js';
import {
  RUN_ID,
  flowUuid,
  idempotencyKeyParam,
  localPath,
  profileParam,
  profilePoolParam,
  runWaitParam,
} from '../schemas/params.js';
import { stitchTarget } from '../stitch/stitchInputs.js';
import { parseJitter } from './batchOperation.js';
import { defineOperation } from './operation.js';
import { MAX_CHAIN_LINKS } from './runLimits.js';

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
    .regex(RUN_ID)
    .optional()
    .describe(
      'A chain id: continue it — finished links are not made (or billed) again, a link that may have been submitted is recovered by its ids, never submitted twice.',
    ),
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
  project: flowUuid('project').optional().describe('The Flow project for every link (else one new project).'),
  stitch: z
    .boolean()
    .default(false)
    .describe(
      'true: once every link is made, join them into one MP4 (output, default chain.mp4 in out_dir) with an OpenTimelineIO timeline beside it (.otio).',
    ),
  output: localPath
    .optional()
    .describe('With stitch: the .mp4 to write (MCP: inside the output directory); an existing file needs overwrite.'),
  overwrite: z.boolean().default(false).describe('With stitch: replace an existing file at output (and its timeline).'),
  profile: profileParam,
  profile_pool: profilePoolParam,
  wait: runWaitParam('chain'),
  idempotency_key: idempotencyKeyParam,
});
export type GenerateChainInput = z.output<typeof generateChainInput>;

export { chainResult, type ChainResult };

type LinkSpec = { prompt: string; model?: string; duration?: number; aspect: (typeof VIDEO_ASPECTS)[number] };

const bad = (parameter: string, detail: string): never => {
  throw new BadParameterError(detail, { extensions: { parameter } });
};

/** Every link's generation input, checked before anything is sent (a frame path stands in for the frames to come). */
function planLinks(links: readonly LinkSpec[], profile: string): GenerateVideoInput[] {
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
      profile,
      wait: true,
    });
    try {
      planVideo(index === 0 ? input : { ...input, initial_frame: 'chain-frame.png' });
    } catch (error) {
      if (error instanceof BadParameterError)
        throw new BadParameterError(`links[${index}]: ${error.detail}`, { extensions: error.extensions, cause: error });
      throw error;
    }
    return input;
  });
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

/** A plan that is not run: the links as they would go (dry_run). */
function plannedView(links: readonly LinkSpec[], project: string | null): ChainResult {
  const planned = links.map((l, index): LinkResult => ({
    index,
    prompt: l.prompt,
    mode: index === 0 ? 't2v' : 'i2v',
    status: 'planned',
  }));
  return {
    status: 'planned',
    chain_id: null,
    flow_project_id: project,
    links: planned,
    made: 0,
    exit_code: 0,
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
  links: readonly LinkSpec[],
  profile: string,
  project: string | null,
): Promise<ChainResult> {
  const view = plannedView(links, project);
  const byCombo = new Map<string, number | null>();
  let where = project ?? undefined;
  for (const [index, link] of links.entries()) {
    const key = `${link.model ?? ''}|${link.duration ?? ''}|${link.aspect}`;
    if (!byCombo.has(key)) {
      const input = generateVideoInput.parse({
        prompt: link.prompt,
        mode: 't2v',
        aspect: link.aspect,
        ...(link.model ? { model: link.model } : {}),
        ...(link.duration === undefined ? {} : { duration: link.duration }),
        ...(where ? { project: where } : {}),
        profile,
        dry_run: true,
        wait: true,
      });
      const estimate = await submitGeneration({ kind: 'video', input }, context);
      if (estimate.status !== 'estimated') {
        view.links[index] = { ...(view.links[index] as LinkResult), error: estimate.error ?? null };
        return { ...view, status: 'failed', exit_code: 1, error: estimate.error };
      }
      where ??= typeof estimate.flow_project_id === 'string' ? estimate.flow_project_id : undefined;
      byCombo.set(key, typeof estimate.credits_quoted === 'number' ? estimate.credits_quoted : null);
    }
    (view.links[index] as LinkResult).credits_quoted = byCombo.get(key) ?? null;
  }
  const quotes = view.links.map((l) => l.credits_quoted ?? null);
  const credits = quotes.includes(null) ? null : quotes.reduce<number>((a, b) => a + (b ?? 0), 0);
  return { ...view, flow_project_id: where ?? null, credits_quoted: credits };
}

/** The links as the chain asks for them: each link's own settings, else the chain's. */
function linkSpecs(input: GenerateChainInput): LinkSpec[] {
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
  return links;
}

/**
 * A video chain (issue #20, the original's `video chain`), as a durable run (issue 38): link 1
 * text-to-video, each later link image-to-video from the last frame of the clip before (taken with
 * the browser gflow drives, uploaded under a run-unique name and bound as the Start frame like any
 * local frame). The plan is checked whole first; each link is a step whose state is written before
 * its submit, so resume_from continues after a crash, a kill or a failed link without ever paying
 * twice for a link.
 */
export async function runChain(input: GenerateChainInput, context: OperationContext): Promise<ChainResult> {
  const { runtime } = context;
  if ((input.links === undefined) === (input.resume_from === undefined))
    bad('links', 'Give the links of a new chain, or resume_from with the id of one to continue (exactly one).');
  if (input.resume_from !== undefined) {
    const profile = await resumedProfile(context, input.profile);
    return (await resumeRun(context, input.resume_from, { wait: input.wait, kind: 'chain', profile })) as ChainResult;
  }
  const { profile, pool } = await runProfileOf(context, { ...input, kind: 'video' });
  const specs = linkSpecs(input);
  const links = planLinks(specs, profile);
  // The stitched file's rules (confined, .mp4, not there unless overwrite) before anything is sent.
  const named =
    input.stitch && input.output !== undefined ? stitchTarget(input.output, input.overwrite, context) : undefined;
  const project = input.project ?? runtime.settings.project ?? null;
  if (input.dry_run) return input.quote ? quoteLinks(context, specs, profile, project) : plannedView(specs, project);
  const chainId = randomUUID();
  const jitter = parseJitter(input.jitter ?? runtime.settings.jitterRange);
  const outDir = chainDir(input, context, chainId);
  const run = {
    run: 'chain' as const,
    command: SURFACE_POLICY[context.surface].names === 'command' ? 'video chain' : 'gflow_generate_chain',
    surface: context.surface,
    profile,
    jitter: { min_ms: jitter.minMs, max_ms: jitter.maxMs },
    project,
    links,
    out_dir: outDir,
    ...(input.stitch ? { output: named ?? path.join(outDir, 'chain.mp4'), overwrite: input.overwrite } : {}),
  };
  const options = { wait: input.wait, idempotencyKey: input.idempotency_key, taskId: chainId, pool };
  return (await submitRun(context, run, options)) as ChainResult;
}

export const generateChain = defineOperation({
  name: 'generateChain',
  mcpName: 'gflow_generate_chain',
  title: 'Generate a chain of clips',
  description: `A story longer than one clip: link 1 is text-to-video, each later link image-to-video from the last frame of the clip before (gflow takes it from the downloaded clip and uploads it as the Start frame). 1–${MAX_CHAIN_LINKS} links of {prompt, model?, duration?, aspect?}; Veo models only. The plan is checked whole before anything is sent (dry_run: only that; with quote=true also Flow's price per link, nothing submitted). The chain is a task (chain_id = task_id; wait=false returns it at once; tasks/get, tasks/cancel — a cancel stops it before its next link) and each link a step whose state is kept before its submit: resume_from=<chain_id> continues after a crash, a kill or a failed link without re-making (or re-billing) finished links, recovering a link that may have been submitted by its ids instead of submitting it again. idempotency_key makes a repeated call return the earlier chain. stitch=true joins the links into one MP4 (output) with an OpenTimelineIO timeline once every link is made. Spends Flow credits per link. Returns {status, chain_id, task_id, flow_project_id, links[{index, prompt, mode, status, task_id, phase, flow_media_id, file, frame, error}], made, exit_code, error (the first failure)}.`,
  kind: 'spend',
  usesBrowser: true,
  // wait=false writes its task row and answers at once; tasks/get, tasks/cancel and the task tools follow it.
  task: 'optional',
  input: generateChainInput,
  output: chainResult,
  steps: async (input, tasks) =>
    input.dry_run
      ? undefined
      : (input.links?.length ??
        (input.resume_from ? stepCountOf((await tasks.get(input.resume_from))?.payload) : undefined)),
  handler: (input, context) => runChain(input, context),
});

/** A chain made by a gflow before runs (its links in the video_chains table), shown as it was kept. */
function legacyChain(context: OperationContext, chainId: string): ChainResult | undefined {
  const row = context.runtime.catalog.chains.get(chainId);
  if (row === undefined) return undefined;
  const state = row.state as unknown as { project: string | null; links: LinkResult[] };
  return {
    status: row.status,
    chain_id: row.chainId,
    flow_project_id: state.project,
    links: state.links,
    made: 0,
    exit_code: 0,
    credits_quoted: null,
  };
}

export const chainStatus = defineOperation({
  name: 'chainStatus',
  mcpName: 'gflow_chain_status',
  title: 'Show a chain',
  description:
    'A video chain from the local catalog: its links, their clips and frames, the running link and its phase, and how far it got. Spends nothing.',
  kind: 'read',
  usesBrowser: false,
  input: z.object({
    chain_id: z.string().trim().regex(RUN_ID).describe('The chain id.'),
  }),
  output: chainResult,
  handler: async (input, context) => {
    const record = await context.runtime.queue.get(input.chain_id);
    const found =
      record !== undefined && isRunPayload(record.payload) && record.taskType === 'chain'
        ? ((await runView(context.runtime, record)) as ChainResult)
        : legacyChain(context, input.chain_id);
    if (found === undefined)
      throw new ReferenceNotFoundError(`No chain ${input.chain_id} in the catalog.`, {
        extensions: { parameter: 'chain_id' },
      });
    return found;
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
