import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  BadParameterError,
  InvalidOutputError,
  type ProblemDetails,
  ReferenceNotFoundError,
  fromProblem,
  toGflowError,
} from '@gflow/errors';
import { z } from 'zod';
import { budgetRefusal, budgetVerdict, creditBudgetOf, localDay, submitGeneration } from '../generation/index.js';
import { generateVideoInput } from '../generation/schemas.js';
import { resumedProfile, runProfileOf } from '../fleet/runProfile.js';
import { type PlannedStory, checkOneAspect, planStory } from '../movie/planStory.js';
import { MAX_MOVIE_STEPS, parseStoryboard, storyboard } from '../movie/storyboard.js';
import { timelineFileOf } from '../movie/timeline.js';
import { confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import {
  type MovieResult,
  type StoryScene,
  isRunPayload,
  movieResult,
  plannedStorySteps,
  resumeRun,
  runView,
  stepCountOf,
  storySteps,
  submitRun,
} from '../runs/index.js';
import { RUN_ID, idempotencyKeyParam, localPath, profileParam, runWaitParam } from '../schemas/params.js';
import { stitchTarget } from '../stitch/stitchInputs.js';
import { withProfileBrowser } from './browserContext.js';
import { parseJitter } from './batchOperation.js';
import { defineOperation } from './operation.js';

export const makeMovieInput = z.object({
  storyboard: storyboard
    .optional()
    .describe(
      `The story: {title?, aspect?, model?, project?, overlap?, scenes: [{title?, prompt | media_id, start? ("previous", an image file or media id), characters? (names), model?, duration?, aspect?, extend?: [prompt | {prompt, model}]}]} — at most ${MAX_MOVIE_STEPS} clips. Omit with resume_from.`,
    ),
  resume_from: z
    .string()
    .trim()
    .regex(RUN_ID)
    .optional()
    .describe(
      'A movie id: continue it — finished clips are not made (or billed) again, a clip that may have been submitted is recovered by its ids, never submitted twice; a movie whose clips are all made only stitches again.',
    ),
  output: localPath
    .optional()
    .describe(
      'The movie .mp4 (MCP: inside the output directory); its OpenTimelineIO timeline goes beside it (.otio). Default: movie.mp4 in out_dir. An existing file is refused unless overwrite.',
    ),
  out_dir: localPath.optional().describe('Where the clips and frames go (default: <output>/movies/<movie id>).'),
  stitch: z.boolean().default(true).describe('false: make the clips only (no movie file, no timeline).'),
  overwrite: z.boolean().default(false).describe('Replace an existing movie file (and its timeline).'),
  dry_run: z.boolean().default(false).describe('Only check the storyboard and show the plan; nothing is sent.'),
  quote: z
    .boolean()
    .default(false)
    .describe(
      "With dry_run: also read Flow's price of every clip in the composer (nothing is submitted; a project may be created).",
    ),
  jitter: z
    .string()
    .trim()
    .optional()
    .describe('Pause between clips: MIN-MAX seconds, N or 0 (GFLOW_CLI_JITTER_RANGE).'),
  profile: profileParam,
  wait: runWaitParam('movie'),
  idempotency_key: idempotencyKeyParam,
});
export type MakeMovieInput = z.output<typeof makeMovieInput>;

const isProblem = (value: unknown): value is ProblemDetails =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const bad = (parameter: string, detail: string): never => {
  throw new BadParameterError(detail, { extensions: { parameter } });
};

/** Where this movie's clips go: out_dir (MCP: confined), else `<output>/movies/<id>`. */
function movieDir(input: MakeMovieInput, context: OperationContext, movieId: string): string {
  const { settings } = context.runtime;
  const dir =
    input.out_dir === undefined
      ? path.join(settings.outputDir, 'movies', movieId)
      : SURFACE_POLICY[context.surface].confineOutput
        ? confineToOutputDir(settings.outputDir, input.out_dir, { parameter: 'out_dir', kind: 'dir' })
        : path.resolve(input.out_dir);
  fs.mkdirSync(dir, { recursive: true });
  ensureWritableDirectory(dir, 'out_dir');
  return dir;
}

/** The movie file named by `output`, checked before anything is sent (confined, .mp4, not there unless overwrite), with its timeline. */
function namedTarget(input: MakeMovieInput, context: OperationContext): string | undefined {
  if (input.output !== undefined && !input.stitch)
    bad('output', 'output names the stitched movie; with stitch=false there is none (out_dir holds the clips).');
  if (!input.stitch || input.output === undefined) return undefined;
  const target = stitchTarget(input.output, input.overwrite, context);
  const timeline = timelineFileOf(target);
  if (!input.overwrite && fs.existsSync(timeline))
    throw new InvalidOutputError(
      `output: the timeline ${timeline} already exists and would be replaced. Nothing was written.`,
      {
        remediationHint: 'Name another movie file, or pass --force (overwrite=true).',
        extensions: { parameter: 'output', existing: [timeline] },
      },
    );
  return target;
}

function plannedMovie(planned: PlannedStory): MovieResult {
  return {
    status: 'planned',
    movie_id: null,
    title: planned.title,
    flow_project_id: planned.project,
    steps: plannedStorySteps(planned),
    made: 0,
    exit_code: 0,
    credits_quoted: null,
    output: null,
    timeline: null,
  };
}

/** One estimate (a dry run of the generation path: nothing submitted), or the failure that stops the quote. */
async function estimate(
  context: OperationContext,
  ask: Parameters<typeof submitGeneration>[0],
): Promise<{ credits: number | null; project: string | null } | { error: unknown }> {
  const result = await submitGeneration(ask, context);
  if (result.status !== 'estimated') return { error: result.error ?? null };
  return {
    credits: typeof result.credits_quoted === 'number' ? result.credits_quoted : null,
    project: typeof result.flow_project_id === 'string' ? result.flow_project_id : null,
  };
}

/**
 * The whole story's price from Flow's own quotes, nothing submitted: a new clip's as a
 * text-to-video estimate with its model, duration and aspect (one per distinct combination; an
 * image- or reference-to-video clip priced like text-to-video is [U]); an extension of an existing
 * video by the scene editor's own quote, and every other extension with the same model at that
 * price. An extension of a clip not made yet with no such quote is null (not read).
 */
async function quoteStory(context: OperationContext, planned: PlannedStory, profile: string): Promise<MovieResult> {
  const view = plannedMovie(planned);
  const prices = new Map<string, number | null>();
  let where = planned.project ?? undefined;
  for (const [index, step] of storySteps(planned.scenes).entries()) {
    const scene = planned.scenes[step.scene] as StoryScene;
    const ask = askToQuote(scene, step, profile, where);
    if (ask !== undefined && !prices.has(ask.key)) {
      const quoted = await estimate(context, ask.ask);
      if ('error' in quoted) {
        view.steps[index] = { ...view.steps[index], error: quoted.error } as MovieResult['steps'][number];
        return { ...view, status: 'failed', exit_code: 1, error: quoted.error };
      }
      where ??= quoted.project ?? undefined;
      prices.set(ask.key, quoted.credits);
    }
    const key = ask?.key ?? extensionKey(scene, step);
    (view.steps[index] as MovieResult['steps'][number]).credits_quoted = prices.get(key) ?? null;
  }
  const quotes = view.steps.map((s) => s.credits_quoted ?? null);
  const total = quotes.includes(null) ? null : quotes.reduce<number>((a, b) => a + (b ?? 0), 0);
  return { ...view, status: 'estimated', flow_project_id: where ?? null, credits_quoted: total };
}

const extensionKey = (scene: StoryScene, step: ReturnType<typeof storySteps>[number]): string =>
  `extend|${scene.extends[step.extension]?.model ?? ''}`;

/** The estimate that prices a step, or undefined when it takes another's price (or none can be read). */
function askToQuote(
  scene: StoryScene,
  step: ReturnType<typeof storySteps>[number],
  profile: string,
  project: string | undefined,
): { key: string; ask: Parameters<typeof submitGeneration>[0] } | undefined {
  if (step.kind === 'clip' && scene.clip.from === 'generate') {
    const { model, duration, aspect, prompt } = scene.clip.input;
    const input = generateVideoInput.parse({
      prompt,
      mode: 't2v',
      aspect,
      ...(model === undefined ? {} : { model }),
      ...(duration === undefined ? {} : { duration }),
      ...(project === undefined ? {} : { project }),
      profile,
      dry_run: true,
    });
    return { key: `clip|${model ?? ''}|${duration ?? ''}|${aspect}`, ask: { kind: 'video', input } };
  }
  if (step.kind !== 'extend' || step.extension !== 0 || scene.clip.from !== 'media') return undefined;
  const extension = scene.extends[0] as StoryScene['extends'][number];
  const input = {
    media_id: scene.clip.media_id,
    prompt: extension.prompt,
    ...(extension.model === undefined ? {} : { model: extension.model }),
    profile,
    dry_run: true,
    wait: true,
    overwrite: false,
  };
  return { key: extensionKey(scene, step), ask: { kind: 'extend', input } };
}

/**
 * The whole story against the budgets before its first submit (one check, not one per clip): a
 * quoted clip above the per-call cap, or the quoted total past the day's budget, refuses the movie
 * (exit 40) with nothing sent. Clips whose price could not be read are still held to the budgets
 * by their own submit, as every generation is.
 */
async function checkBudget(context: OperationContext, planned: PlannedStory, profile: string): Promise<void> {
  const { settings, catalog } = context.runtime;
  const budget = creditBudgetOf(settings);
  if (budget.max_credits_per_call === null && budget.daily_credit_budget === null) return;
  const quote = await quoteStory(context, planned, profile);
  // A budget needs the quote: a story whose quote failed is not started (nothing was sent).
  if (quote.status === 'failed') throw isProblem(quote.error) ? fromProblem(quote.error) : toGflowError(quote.error);
  const day = localDay();
  const todayTotal = catalog.credits.dayTotal(profile, day);
  const known = quote.steps.flatMap((s) => (typeof s.credits_quoted === 'number' ? [s.credits_quoted] : []));
  const highest = Math.max(0, ...known);
  const sum = known.reduce((a, b) => a + b, 0);
  const facts = { budget, profile, day, todayTotal };
  if (budgetVerdict({ ...budget, daily_credit_budget: null }, highest, 0) === 'per_call')
    throw budgetRefusal({ ...facts, verdict: 'per_call', quoted: highest });
  if (budgetVerdict({ ...budget, max_credits_per_call: null }, sum, todayTotal) === 'daily')
    throw budgetRefusal({ ...facts, verdict: 'daily', quoted: sum });
}

/**
 * A movie (issue 39): a storyboard checked whole (nothing sent on any problem), quoted and held to
 * the budgets as one, then made as one durable run — each clip a step whose state is written
 * before its submit, so resume_from continues after a crash, a kill or a failed clip without paying
 * twice — and stitched with its OpenTimelineIO timeline.
 */
export async function makeMovieRun(input: MakeMovieInput, context: OperationContext): Promise<MovieResult> {
  const { runtime } = context;
  if ((input.storyboard === undefined) === (input.resume_from === undefined))
    bad(
      'storyboard',
      'Give the storyboard of a new movie, or resume_from with the id of one to continue (exactly one).',
    );
  if (input.resume_from !== undefined) {
    const profile = await resumedProfile(context, input.profile);
    return (await resumeRun(context, input.resume_from, { wait: input.wait, kind: 'story', profile })) as MovieResult;
  }
  // On a fleet the fleet names the profile (a worker holds it); on one machine, this home's.
  const { profile } = await runProfileOf(context, { profile: input.profile, kind: 'video' });
  const board = parseStoryboard(input.storyboard);
  const target = namedTarget(input, context);
  const planned = await planStory(board, {
    catalog: runtime.catalog,
    profile,
    cwd: process.cwd(),
    characters: (project) => projectCharacters(context, profile, project),
  });
  if (input.stitch) checkOneAspect(planned, { catalog: runtime.catalog, profile });
  if (input.dry_run) return input.quote ? quoteStory(context, planned, profile) : plannedMovie(planned);
  await checkBudget(context, planned, profile);
  const movieId = randomUUID();
  const dir = movieDir(input, context, movieId);
  const jitter = parseJitter(input.jitter ?? runtime.settings.jitterRange);
  const run = {
    run: 'story' as const,
    command: SURFACE_POLICY[context.surface].names === 'command' ? 'movie run' : 'gflow_make_movie',
    surface: context.surface,
    profile,
    jitter: { min_ms: jitter.minMs, max_ms: jitter.maxMs },
    project: planned.project,
    title: planned.title,
    scenes: planned.scenes,
    out_dir: dir,
    output: input.stitch ? (target ?? path.join(dir, 'movie.mp4')) : null,
    overwrite: input.overwrite,
    overlap: planned.overlap,
  };
  const options = { wait: input.wait, idempotencyKey: input.idempotency_key, taskId: movieId };
  return (await submitRun(context, run, options)) as MovieResult;
}

async function projectCharacters(context: OperationContext, profile: string, project: string) {
  const { listCharacters } = await import('@gflow/driver');
  const listed = await withProfileBrowser(context, profile, (browser) =>
    listCharacters(browser, { projectId: project, signal: context.signal }),
  );
  return listed.map((c) => ({ entityId: c.entity_id, name: c.display_name }));
}

export const makeMovie = defineOperation({
  name: 'makeMovie',
  mcpName: 'gflow_make_movie',
  title: 'Make a movie from a storyboard',
  description: `A movie from a storyboard of scenes: each a new clip — text-to-video, image-to-video (start: "previous" for the last frame of the scene before, an image file or a generated image's media id) or reference-to-video with saved characters of the project (characters: names) — or an existing finished video (media_id), each with optional extensions in a row (extend: prompts; each continues the clip before from its last second, in Flow's scene editor). The storyboard is checked whole before anything is sent (a problem names its scene and field: exit 2; an unknown media id: 32); dry_run shows the plan, with quote=true also Flow's price of every clip (nothing submitted). A budget (GFLOW_CLI_MAX_CREDITS_PER_CALL, GFLOW_CLI_DAILY_CREDIT_BUDGET) is checked against the whole story's quote before the first submit. The movie is one durable run (movie_id = task_id; wait=false returns at once; tasks/get, tasks/cancel — a cancel stops it before its next clip): each clip is a step whose state is kept before its submit, so resume_from=<movie_id> continues without re-making (or re-billing) finished clips. When every clip is made they are stitched into one MP4 (an extension's repeated second cut) with an OpenTimelineIO timeline beside it (.otio: every clip with its media id, in/out points and prompt). Spends Flow credits per clip. Returns {status, movie_id, title, flow_project_id, steps[{index, scene, mode, prompt, status, task_id, flow_media_id, file, credits_quoted, error}], output{path, seconds, frames}, timeline, clips, made, exit_code, credits_quoted, error}.`,
  kind: 'spend',
  usesBrowser: true,
  task: 'optional',
  input: makeMovieInput,
  output: movieResult,
  steps: async (input, tasks) => {
    if (input.dry_run) return undefined;
    if (input.storyboard !== undefined)
      return input.storyboard.scenes.reduce(
        (n, s) => n + (s.prompt === undefined ? 0 : 1) + (s.extend?.length ?? 0),
        0,
      );
    return input.resume_from ? stepCountOf((await tasks.get(input.resume_from))?.payload) : undefined;
  },
  handler: (input, context) => makeMovieRun(input, context),
});

export const movieStatus = defineOperation({
  name: 'movieStatus',
  mcpName: 'gflow_movie_status',
  title: 'Show a movie',
  description:
    'A movie from the local catalog: its clips (made, running, failed), the stitched file and its timeline, and how far it got. Spends nothing.',
  kind: 'read',
  usesBrowser: false,
  input: z.object({ movie_id: z.string().trim().regex(RUN_ID).describe('The movie id.') }),
  output: movieResult,
  handler: async (input, context) => {
    const record = await context.runtime.queue.get(input.movie_id);
    if (record === undefined || !isRunPayload(record.payload) || record.taskType !== 'story')
      throw new ReferenceNotFoundError(`No movie ${input.movie_id} in the catalog.`, {
        extensions: { parameter: 'movie_id' },
      });
    return (await runView(context.runtime, record)) as MovieResult;
  },
});
