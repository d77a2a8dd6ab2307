import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, UsageError } from '@gflow/errors';
import { STORYBOARD_TEMPLATE, readStoryboardFile } from '@gflow/core/surfaces';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import { defineGroup, defineLeaf, type LeafOutput } from '../framework/commandSpec.js';
import type { LeafContext } from '../framework/leafContext.js';
import { runOperation } from '../framework/operationLeaf.js';
import { runNotes } from '../output/runSpend.js';
import { renderTable } from '../output/table.js';
import { queuedRunText, runFlags, runInput } from './imageBulk.js';

interface MovieView {
  readonly status: string;
  readonly movie_id: string | null;
  readonly title: string;
  readonly flow_project_id: string | null;
  readonly steps: Array<{
    index: number;
    scene: number;
    mode: string;
    prompt: string;
    status: string;
    file?: string | null;
    flow_media_id?: string | null;
    credits_quoted?: number | null;
  }>;
  readonly credits_quoted?: number | null;
  readonly output?: { path: string; seconds: number; frames: number } | null;
  readonly timeline?: string | null;
  readonly made: number;
  readonly exit_code: number;
}

const planned = (r: MovieView): boolean => r.status === 'planned' || r.status === 'estimated';

function priceLine(r: MovieView): string {
  const unread = r.steps.filter((s) => s.credits_quoted == null).length;
  if (r.status === 'planned') return 'price not read';
  if (r.credits_quoted != null) return `${r.credits_quoted} credits quoted by Flow`;
  const known = r.steps.reduce((n, s) => n + (s.credits_quoted ?? 0), 0);
  return `${known} credits quoted by Flow, ${unread} clip${unread === 1 ? '' : 's'} not priced (an extension of a clip not made yet)`;
}

/** A movie's text: its clips as a table, then the movie file and timeline (or what to do next). */
export function renderMovie(result: unknown): LeafOutput {
  const r = result as MovieView;
  if (r.status === 'pending' && r.movie_id)
    return { data: result, text: queuedRunText('Movie', r.movie_id, r.steps.length, 'clip') };
  const plan = planned(r);
  const table = renderTable(
    ['CLIP', 'SCENE', 'MODE', 'STATUS', 'PROMPT', plan ? 'CREDITS' : 'FILE / MEDIA'],
    r.steps.map((s) => [
      String(s.index + 1),
      String(s.scene + 1),
      s.mode,
      s.status,
      s.prompt,
      plan ? (s.credits_quoted == null ? '?' : String(s.credits_quoted)) : (s.file ?? s.flow_media_id ?? ''),
    ]),
  );
  const head = plan
    ? `Plan of "${r.title}" (nothing sent): ${r.steps.length} clip${r.steps.length === 1 ? '' : 's'}, ${priceLine(r)}`
    : `Movie ${r.movie_id ?? '-'} "${r.title}": ${r.status}, ${r.made} made by this run, project ${r.flow_project_id ?? '-'}`;
  const movie = r.output
    ? [`Wrote ${r.output.path}: ${r.output.seconds} s, ${r.output.frames} frames`, `Timeline: ${r.timeline ?? '-'}`]
    : [];
  const notes = runNotes(r as unknown as Parameters<typeof runNotes>[0]);
  const text = [head, table, ...movie, ...notes].join('\n');
  return { data: result, text, ...(r.exit_code === 0 ? {} : { exitCode: r.exit_code }) };
}

async function storyboardOf(ctx: LeafContext, file: string): Promise<unknown> {
  const where = path.resolve(ctx.cwd, file);
  let text: string;
  try {
    const size = fs.statSync(where).size;
    if (size > 256 * 1024)
      throw new BadParameterError(`${file} is ${size} bytes; a storyboard may be at most 256 KiB.`);
    text = fs.readFileSync(where, 'utf8');
  } catch (error) {
    if (error instanceof BadParameterError) throw error;
    throw new BadParameterError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, {
      extensions: { parameter: 'FILE' },
    });
  }
  return readStoryboardFile(where, text);
}

/** The output flags of a movie as makeMovie input. */
function outputInput(ctx: LeafContext, values: ParsedValues): Record<string, unknown> {
  return {
    ...(typeof values['output'] === 'string' ? { output: path.resolve(ctx.cwd, values['output']) } : {}),
    ...(typeof values['out_dir'] === 'string' ? { out_dir: path.resolve(ctx.cwd, values['out_dir']) } : {}),
    ...(values['overwrite'] === true ? { overwrite: true } : {}),
    ...(values['stitch'] === false ? { stitch: false } : {}),
    ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
    ...(values['profile'] ? { profile: values['profile'] } : {}),
  };
}

/**
 * Runs a movie the CLI way: --dry-run quotes it; otherwise the plan (checked whole, quoted) and one
 * question before the first submit, unless -y.
 */
export async function runMovie(ctx: LeafContext, values: ParsedValues, input: Record<string, unknown>) {
  if (values['dry_run'] === true)
    return renderMovie(await runOperation(ctx, 'makeMovie', () => ({ ...input, dry_run: true, quote: true })));
  if (values['yes'] !== true && input['resume_from'] === undefined) {
    const plan = (await runOperation(ctx, 'makeMovie', () => ({ ...input, dry_run: true, quote: true }))) as MovieView;
    const ok = await ctx.confirm(
      `This movie makes ${plan.steps.length} clip${plan.steps.length === 1 ? '' : 's'} (${priceLine(plan)}). Go on?`,
      'A movie spends credits: pass -y to go on without a terminal to ask (or --dry-run to see the plan).',
    );
    if (!ok) throw new UsageError('Not started: nothing was sent.');
  }
  return renderMovie(await runOperation(ctx, 'makeMovie', () => ({ ...input, ...runInput(values) })));
}

const OUTPUT_FLAGS = () => [
  flag({
    key: 'output',
    aliases: ['o'],
    kind: 'string',
    valueHint: 'FILE.mp4',
    description: 'The movie file (default: movie.mp4 in the movie folder); its timeline goes beside it (.otio).',
  }),
  flag({
    key: 'out_dir',
    name: 'out-dir',
    kind: 'string',
    valueHint: 'DIR',
    description: 'Where the clips and frames go (default: <output>/movies/<movie id>).',
  }),
  flag({
    key: 'overwrite',
    name: 'force',
    kind: 'boolean',
    description: 'Replace an existing movie file and timeline.',
  }),
  flag({
    key: 'stitch',
    kind: 'boolean',
    description: 'Stitch the clips into the movie (default); --no-stitch: clips only.',
  }),
  flag({ key: 'jitter', kind: 'string', valueHint: 'MIN-MAX', description: 'Pause between clips (seconds).' }),
];

const movieRun = defineLeaf({
  name: 'run',
  description:
    'Make a movie from a storyboard (YAML): every scene a new clip (t2v, i2v from the scene before or an image, r2v with saved characters) or an existing video, with extensions; quoted and checked whole first, one durable run, stitched with an OpenTimelineIO timeline. Spends credits per clip.',
  operation: 'makeMovie',
  positionals: () => [
    { key: 'file', name: 'FILE', description: 'The storyboard (YAML or JSON; omit with --resume-from).' },
  ],
  flags: () => [
    flag({
      key: 'dry_run',
      name: 'dry-run',
      kind: 'boolean',
      description: "Check the storyboard and read Flow's price of every clip; submit nothing.",
    }),
    flag({ key: 'yes', aliases: ['y'], kind: 'boolean', description: 'Do not ask before spending credits.' }),
    flag({
      key: 'resume_from',
      name: 'resume-from',
      kind: 'string',
      valueHint: 'MOVIE_ID',
      description: 'Continue a movie: finished clips are not made again.',
    }),
    ...OUTPUT_FLAGS(),
    ...runFlags(),
    PROFILE_FLAG,
    SANDBOX_FLAG,
  ],
  examples: [
    'gflow movie template > story.yaml',
    'gflow movie run story.yaml --dry-run',
    'gflow movie run story.yaml -y -o lighthouse.mp4',
    'gflow movie run --resume-from 1f2e… -y',
  ],
  handlesInterrupt: true,
  async run(ctx, values) {
    const file = values['file'];
    const resume = values['resume_from'];
    if ((file === undefined) === (resume === undefined))
      throw new UsageError('Give the storyboard FILE, or --resume-from MOVIE_ID (exactly one).', {
        extensions: { parameter: 'FILE' },
      });
    const source = typeof file === 'string' ? { storyboard: await storyboardOf(ctx, file) } : { resume_from: resume };
    return runMovie(ctx, values, { ...source, ...outputInput(ctx, values) });
  },
});

const moviePlan = defineLeaf({
  name: 'plan',
  description: "Check a storyboard and read Flow's price of every clip (the whole story's quote); submits nothing.",
  operation: 'makeMovie',
  positionals: () => [{ key: 'file', name: 'FILE', required: true, description: 'The storyboard (YAML or JSON).' }],
  flags: () => [PROFILE_FLAG, SANDBOX_FLAG],
  examples: ['gflow movie plan story.yaml'],
  async run(ctx, values) {
    const storyboard = await storyboardOf(ctx, String(values['file']));
    const input = { storyboard, ...(values['profile'] ? { profile: values['profile'] } : {}) };
    return renderMovie(await runOperation(ctx, 'makeMovie', () => ({ ...input, dry_run: true, quote: true })));
  },
});

const movieStatus = defineLeaf({
  name: 'status',
  description: 'A movie from the local catalog: its clips, the movie file and timeline, and how far it got.',
  operation: 'movieStatus',
  positionals: () => [{ key: 'movie_id', name: 'MOVIE_ID', required: true, description: 'The movie id.' }],
  examples: ['gflow movie status 1f2e…'],
  async run(ctx, values) {
    return renderMovie(await runOperation(ctx, 'movieStatus', () => ({ movie_id: values['movie_id'] })));
  },
});

const movieTemplate = defineLeaf({
  name: 'template',
  description: 'Print a commented example storyboard to start from.',
  sandbox: false,
  recordUsage: false,
  examples: ['gflow movie template > story.yaml'],
  async run() {
    return { data: { storyboard: STORYBOARD_TEMPLATE }, text: STORYBOARD_TEMPLATE.trimEnd() };
  },
});

export const movieCommand = defineGroup({
  name: 'movie',
  description: 'Movies from storyboards: template, plan, run, status.',
  children: { run: movieRun, plan: moviePlan, status: movieStatus, template: movieTemplate },
});
