import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, UsageError } from '@gflow/errors';
import { MAX_CHAIN_LINKS } from '@gflow/core/surfaces';
import { parseChainFile } from '@gflow/core/surfaces';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import { defineLeaf, type LeafOutput } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';
import { queuedRunText, runFlags, runInput } from './imageBulk.js';
import { runNotes } from '../output/runSpend.js';
import { renderTable } from '../output/table.js';

interface ChainView {
  readonly status: string;
  readonly chain_id: string | null;
  readonly flow_project_id: string | null;
  readonly links: Array<{
    index: number;
    prompt: string;
    mode: string;
    status: string;
    file?: string | null;
    flow_media_id?: string | null;
    credits_quoted?: number | null;
  }>;
  readonly credits_quoted?: number | null;
  readonly made: number;
  readonly exit_code: number;
  readonly output?: { path: string; seconds: number; frames: number } | null;
  readonly timeline?: string | null;
}

function renderChain(result: unknown): LeafOutput {
  const r = result as ChainView;
  if (r.status === 'pending' && r.chain_id)
    return { data: result, text: queuedRunText('Chain', r.chain_id, r.links.length, 'link') };
  const planned = r.status === 'planned';
  const table = renderTable(
    ['LINK', 'MODE', 'STATUS', 'PROMPT', planned ? 'CREDITS' : 'FILE / MEDIA'],
    r.links.map((l) => [
      String(l.index + 1),
      l.mode,
      l.status,
      l.prompt,
      planned ? (l.credits_quoted == null ? '?' : String(l.credits_quoted)) : (l.file ?? l.flow_media_id ?? ''),
    ]),
  );
  const head = planned
    ? `Plan (nothing sent): ${r.links.length} clips, ${r.credits_quoted == null ? 'price not read' : `${r.credits_quoted} credits quoted by Flow`}`
    : `Chain ${r.chain_id ?? '-'}: ${r.status}, ${r.made} made by this run, project ${r.flow_project_id ?? '-'}`;
  const notes = runNotes(r as unknown as Parameters<typeof runNotes>[0]);
  const movie = r.output
    ? [`Wrote ${r.output.path}: ${r.output.seconds} s, ${r.output.frames} frames`, `Timeline: ${r.timeline ?? '-'}`]
    : [];
  const text = [head, table, ...movie, ...notes].join('\n');
  return { data: result, text, ...(r.exit_code === 0 ? {} : { exitCode: r.exit_code }) };
}

/** `gflow video chain FILE.jsonl`: core's generateChain (one home for the chain, its state in the catalog). */
export const videoChainCommand = defineLeaf({
  name: 'chain',
  description: `A story longer than one clip: one link per JSONL line {prompt, model?, duration?, aspect?} (≤ ${MAX_CHAIN_LINKS}); link 1 is text-to-video, each later link image-to-video from the last frame of the clip before. Spends credits per link.`,
  operation: 'generateChain',
  positionals: () => [
    { key: 'file', name: 'FILE', description: 'The chain, one JSON link per line (omit with --resume-from).' },
  ],
  flags: () => [
    flag({
      key: 'dry_run',
      name: 'dry-run',
      kind: 'boolean',
      description: "Check the plan and read Flow's price of each link in the composer; submit nothing.",
    }),
    flag({ key: 'yes', aliases: ['y'], kind: 'boolean', description: 'Do not ask before spending credits.' }),
    flag({
      key: 'resume_from',
      name: 'resume-from',
      kind: 'string',
      valueHint: 'CHAIN_ID',
      description: 'Continue a chain: finished links are not made again.',
    }),
    flag({
      key: 'max_links',
      name: 'max-links',
      kind: 'number',
      valueHint: 'N',
      description: `Refuse a chain longer than N links (default 10, at most ${MAX_CHAIN_LINKS}).`,
    }),
    flag({
      key: 'aspect',
      kind: 'enum',
      options: ['9:16', '16:9'],
      description: 'Aspect of links that set none (default 9:16).',
    }),
    flag({ key: 'model', kind: 'string', valueHint: 'MODEL', description: 'Model of links that set none (Veo).' }),
    flag({ key: 'jitter', kind: 'string', valueHint: 'MIN-MAX', description: 'Pause between links (seconds).' }),
    flag({
      key: 'out_dir',
      name: 'out-dir',
      kind: 'string',
      valueHint: 'DIR',
      description: 'Where the clips and frames go (default: <output>/chains/<chain id>).',
    }),
    flag({ key: 'project', kind: 'string', valueHint: 'PROJECT_ID', description: 'The Flow project for every link.' }),
    flag({
      key: 'stitch',
      kind: 'boolean',
      description:
        'Join the links into one MP4 once all are made (-o names it), with an OpenTimelineIO timeline beside it.',
    }),
    flag({
      key: 'output',
      aliases: ['o'],
      kind: 'string',
      valueHint: 'FILE.mp4',
      description: 'With --stitch: the file to write (default: chain.mp4 in the chain folder).',
    }),
    flag({ key: 'overwrite', name: 'force', kind: 'boolean', description: 'With --stitch: replace an existing file.' }),
    ...runFlags(),
    PROFILE_FLAG,
    SANDBOX_FLAG,
  ],
  examples: [
    'gflow video chain story.jsonl --dry-run',
    'gflow video chain story.jsonl -y --aspect 16:9 --out-dir ./story',
    'gflow video chain --resume-from ch-1f2e… -y',
    'gflow video chain story.jsonl -y --no-wait --idempotency-key story-v1',
    'gflow video chain story.jsonl -y --stitch -o story.mp4',
  ],
  handlesInterrupt: true,
  async run(ctx, values) {
    const file = values['file'];
    const resume = values['resume_from'];
    if ((file === undefined) === (resume === undefined))
      throw new UsageError('Give the chain FILE, or --resume-from CHAIN_ID (exactly one).', {
        extensions: { parameter: 'FILE' },
      });
    let links: unknown;
    if (typeof file === 'string') {
      let text: string;
      try {
        text = fs.readFileSync(path.resolve(ctx.cwd, file), 'utf8');
      } catch (error) {
        throw new BadParameterError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, {
          extensions: { parameter: 'FILE' },
        });
      }
      links = await parseChainFile(text);
    }
    const input = {
      ...(links === undefined ? { resume_from: resume } : { links }),
      ...(values['aspect'] ? { aspect: values['aspect'] } : {}),
      ...(values['model'] ? { model: values['model'] } : {}),
      ...(values['max_links'] === undefined ? {} : { max_links: values['max_links'] }),
      ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
      ...(typeof values['out_dir'] === 'string' ? { out_dir: path.resolve(ctx.cwd, values['out_dir']) } : {}),
      ...(values['project'] ? { project: values['project'] } : {}),
      ...(values['stitch'] === true ? { stitch: true } : {}),
      ...(typeof values['output'] === 'string' ? { output: path.resolve(ctx.cwd, values['output']) } : {}),
      ...(values['overwrite'] === true ? { overwrite: true } : {}),
      ...(values['profile'] ? { profile: values['profile'] } : {}),
    };
    // --dry-run reads Flow's price of each link too (nothing is submitted).
    if (values['dry_run'] === true)
      return renderChain(await runOperation(ctx, 'generateChain', () => ({ ...input, dry_run: true, quote: true })));
    if (values['yes'] !== true) {
      // The plan first (checked whole, nothing sent), then the question.
      const plan = (await runOperation(ctx, 'generateChain', () => ({ ...input, dry_run: true }))) as ChainView;
      const left = plan.links.filter((l) => l.status !== 'done').length;
      const ok = await ctx.confirm(
        `This chain makes ${left} clip${left === 1 ? '' : 's'} and spends Flow credits for each. Go on?`,
        'A chain spends credits: pass -y to go on without a terminal to ask (or --dry-run to see the plan).',
      );
      if (!ok) throw new UsageError('Not started: nothing was sent.');
    }
    return renderChain(await runOperation(ctx, 'generateChain', () => ({ ...input, ...runInput(values) })));
  },
});

export const videoChainStatusCommand = defineLeaf({
  name: 'chain-status',
  description: 'A video chain from the local catalog: its links, clips and frames, and how far it got.',
  operation: 'chainStatus',
  positionals: () => [{ key: 'chain_id', name: 'CHAIN_ID', required: true, description: 'The chain id.' }],
  examples: ['gflow video chain-status ch-1f2e…'],
  async run(ctx, values) {
    return renderChain(await runOperation(ctx, 'chainStatus', () => ({ chain_id: values['chain_id'] })));
  },
});
