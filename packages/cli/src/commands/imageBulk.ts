import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, UsageError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from '@gflow/core/surfaces';
import { parsePromptLines } from '@gflow/core/surfaces';
import { type FlagSpec, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import type { LeafOutput } from '../framework/commandSpec.js';
import type { LeafContext } from '../framework/leafContext.js';
import { runOperation } from '../framework/operationLeaf.js';
import { runNotes } from '../output/runSpend.js';
import { renderTable } from '../output/table.js';

/** The flags of a run of many prompts (image t2i with several, image batch, run --config). */
export function bulkFlags(): FlagSpec[] {
  return [
    flag({
      key: 'fail_fast',
      name: 'fail-fast',
      kind: 'boolean',
      description: 'Stop at the first failed prompt (default: --continue-on-error).',
    }),
    flag({
      key: 'continue_on_error',
      name: 'continue-on-error',
      kind: 'boolean',
      description: 'Go on with the other prompts when one fails (the default).',
    }),
    flag({
      key: 'jitter',
      kind: 'string',
      valueHint: 'MIN-MAX',
      description: 'Pause between submits in seconds: MIN-MAX, N or 0 (default GFLOW_CLI_JITTER_RANGE, 0.5-1.5).',
    }),
  ];
}

/** --dry-run and --max-credits of the runs whose flags are not an operation's schema (image batch, run --config). */
export function spendFlags(): FlagSpec[] {
  return [
    flag({
      key: 'dry_run',
      name: 'dry-run',
      kind: 'boolean',
      description:
        "Estimate every prompt: do all the work up to each submit, read Flow's quote and the balance, submit nothing.",
    }),
    flag({
      key: 'max_credits',
      name: 'max-credits',
      kind: 'number',
      valueHint: 'N',
      description: 'Refuse any submit quoted above N credits (only lowers GFLOW_CLI_MAX_CREDITS_PER_CALL).',
    }),
  ];
}

/** --no-wait and --idempotency-key of a run (a batch, a chain): the run is a task either way. */
export function runFlags(): FlagSpec[] {
  return [
    flag({
      key: 'wait',
      kind: 'boolean',
      description:
        "Wait for the whole run (default); --no-wait hands it to a background worker and prints its task id ('gflow task wait ID' follows it, 'gflow task cancel ID' stops it before its next submit).",
    }),
    flag({
      key: 'idempotency_key',
      name: 'idempotency-key',
      kind: 'string',
      valueHint: 'KEY',
      description:
        'A key of your own for this run: running the command again with the same key returns the earlier run instead of paying again (per profile).',
    }),
  ];
}

/** The run flags as run input. */
export function runInput(values: ParsedValues): Record<string, unknown> {
  return {
    ...(values['wait'] === false ? { wait: false } : {}),
    ...(typeof values['idempotency_key'] === 'string' ? { idempotency_key: values['idempotency_key'] } : {}),
  };
}

/** The text of a run handed to the background: its id and how to follow it. */
export function queuedRunText(word: 'Batch' | 'Chain' | 'Movie', taskId: string, steps: number, unit: string): string {
  return [
    `${word} ${taskId} queued (${steps} ${unit}${steps === 1 ? '' : 's'}); a background worker runs it.`,
    `Follow it: 'gflow task wait ${taskId}'   See it: 'gflow task show ${taskId}'   Stop it: 'gflow task cancel ${taskId}'`,
  ].join('\n');
}

/** The spend flags as generateBatch input. */
export function spendInput(values: ParsedValues): Record<string, unknown> {
  return {
    ...(values['dry_run'] === true ? { dry_run: true } : {}),
    ...(typeof values['max_credits'] === 'number' ? { max_credits: values['max_credits'] } : {}),
  };
}

/** The flags that add prompts to `image t2i`. */
export function promptSourceFlags(): FlagSpec[] {
  return [
    flag({
      key: 'prompts_file',
      name: 'prompts-file',
      kind: 'string',
      valueHint: 'FILE',
      description: 'Read prompts from FILE, one per line (blank lines and # comments skipped).',
    }),
    flag({ key: 'stdin', kind: 'boolean', description: 'Read prompts from standard input, one per line.' }),
  ];
}

/** The prompts of `image t2i`: the arguments, then --prompts-file, then --stdin. */
export async function collectPrompts(values: ParsedValues, ctx: LeafContext): Promise<string[]> {
  const given = values['prompt'];
  const prompts = Array.isArray(given) ? given.map(String) : typeof given === 'string' ? [given] : [];
  // `t2i a fox in snow` is one prompt the shell split into words, not four images to make.
  if (prompts.length > 1 && prompts.some((p) => !/\s/.test(p.trim()))) {
    const joined = prompts.join(' ');
    throw new UsageError(
      `${prompts.length} prompts were given (${prompts
        .slice(0, 5)
        .map((p) => JSON.stringify(p.slice(0, 40)))
        .join(
          ', ',
        )}${prompts.length > 5 ? ', …' : ''}); a one-word prompt among several is almost always one unquoted prompt. Nothing was sent.`,
      {
        remediationHint: `Quote the prompt: gflow ${ctx.commandPath} ${JSON.stringify(joined.slice(0, 200))}. To run several one-word prompts, put them in a file, one per line: --prompts-file FILE.`,
        extensions: { parameter: 'PROMPT' },
      },
    );
  }
  if (typeof values['prompts_file'] === 'string') {
    const file = path.resolve(ctx.cwd, values['prompts_file']);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new BadParameterError(
        `Cannot read --prompts-file ${values['prompts_file']} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        { extensions: { parameter: 'prompts-file' } },
      );
    }
    prompts.push(...parsePromptLines(text));
  }
  if (values['stdin'] === true) {
    if (!ctx.io.readStdin) throw new UsageError('--stdin needs a standard input to read.');
    prompts.push(...parsePromptLines(await ctx.io.readStdin()));
  }
  if (prompts.length === 0)
    throw new UsageError('Missing argument PROMPT (or --prompts-file FILE / --stdin).', {
      extensions: { parameter: 'PROMPT' },
    });
  if (prompts.length > MAX_BATCH_ITEMS)
    throw new UsageError(`A run takes at most ${MAX_BATCH_ITEMS} prompts; got ${prompts.length}.`, {
      extensions: { parameter: 'PROMPT' },
    });
  return prompts;
}

/** --fail-fast and --continue-on-error are each other's opposite. */
export function failFastOf(values: ParsedValues): boolean {
  if (values['fail_fast'] === true && values['continue_on_error'] === true)
    throw new UsageError('Use --fail-fast or --continue-on-error, not both.', {
      extensions: { parameter: 'fail-fast' },
    });
  return values['fail_fast'] === true;
}

/** Flags that name one prompt's result and make no sense for several. */
export function refuseSinglePromptFlags(values: ParsedValues, keys: Readonly<Record<string, string>>): void {
  for (const [key, name] of Object.entries(keys)) {
    const value = values[key];
    if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) continue;
    throw new UsageError(`${name} works with one prompt only; with several, drop it (or run them one by one).`, {
      extensions: { parameter: name },
    });
  }
}

interface BatchItemView {
  readonly status: string;
  readonly prompt?: string;
  readonly files?: readonly string[];
  readonly flow_media_id?: string | null;
  readonly params?: { readonly prompt?: string };
  readonly error?: { readonly title?: string; readonly detail?: string };
  readonly credits_quoted?: number | null;
}

/** Runs core's generateBatch and renders it: a table on a terminal, the whole document with --json; exit = the highest per-prompt code. */
export async function runBatchOperation(ctx: LeafContext, input: Record<string, unknown>): Promise<LeafOutput> {
  const result = (await runOperation(ctx, 'generateBatch', () => input)) as {
    status: string;
    flow_project_id: string | null;
    items: BatchItemView[];
    pauses_ms: number[];
    exit_code: number;
    credits_quoted?: number | null;
    task_id?: string;
  };
  if (result.status === 'pending' && result.task_id)
    return { data: result, text: queuedRunText('Batch', result.task_id, result.items.length, 'prompt') };
  const rows = result.items.map((item, i) => [
    String(i + 1),
    item.status,
    item.prompt ?? item.params?.prompt ?? '',
    item.status === 'completed'
      ? (item.files ?? []).join(', ')
      : item.status === 'estimated'
        ? `quoted ${item.credits_quoted ?? 'unreadable'}`
        : (item.error?.detail ?? item.error?.title ?? ''),
  ]);
  const estimated = result.items.some((i) => i.status === 'estimated');
  const done = result.items.filter((i) => i.status === 'completed' || i.status === 'estimated').length;
  const summary = estimated
    ? `${done}/${result.items.length} estimated in project ${result.flow_project_id ?? '-'}: ${result.credits_quoted ?? 'unreadable'} credits quoted in all; nothing was submitted`
    : `${done}/${result.items.length} completed in project ${result.flow_project_id ?? '-'}`;
  const notes = runNotes(result as unknown as Parameters<typeof runNotes>[0]);
  const text = [renderTable(['#', 'STATUS', 'PROMPT', 'FILES / ERROR'], rows), summary, ...notes].join('\n');
  return { data: result, text, summary, ...(result.exit_code === 0 ? {} : { exitCode: result.exit_code }) };
}
