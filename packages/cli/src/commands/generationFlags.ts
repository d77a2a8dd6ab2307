import fs from 'node:fs';
import path from 'node:path';
import {
  BadParameterError,
  CancelledError,
  GflowError,
  type GflowErrorOptions,
  type ProblemDetails,
  UsageError,
  exitCodeOf,
  fromProblem,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { isFailureStatus } from '@gflow/core/surfaces';
import { FLOW_ID } from '@gflow/core/surfaces';
import { type FlagSpec, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import { parseToolSpec } from '../args/toolSpecArg.js';
import type { FlagOverride } from '../args/zodFlags.js';
import type { LeafOutput } from '../framework/commandSpec.js';
import type { LeafContext } from '../framework/leafContext.js';
import { renderFields } from '../output/table.js';

/** The CLI spellings of the generation parameters (same names as MCP where they mean the same). */
export const GENERATION_OVERRIDES: Readonly<Record<string, FlagOverride>> = {
  count: { aliases: ['n'], valueHint: '1-4' },
  output: {
    aliases: ['o'],
    valueHint: 'FILE',
    description:
      'File to write (any path; a directory is refused; an existing file is refused unless --force). The extension follows the bytes (-o shot.png on JPEG bytes writes shot.jpg, and says so). With -n > 1: FILE_1, FILE_2, ….',
  },
  overwrite: {
    name: 'force',
    description: 'Replace a file already at the -o path (default: refuse before anything is sent).',
  },
  output_dir: { omit: true },
  reference_entities: {
    name: 'reference-entity',
    valueHint: 'ENTITY_ID',
    description:
      "A saved character's entity id (gflow character list); pair each with a --reference-entity-name, in order.",
  },
  reference_entity_names: {
    name: 'reference-entity-name',
    valueHint: 'NAME',
    description: 'The display name of the --reference-entity at the same position.',
  },
  tools: {
    name: 'tool',
    aliases: ['t'],
    kind: 'string',
    valueHint: 'NAME[:k=v]',
    parse: parseToolSpec,
    description: 'Apply a prompt tool before sending (see gflow tools list).',
  },
  instructions: { name: 'instruction', aliases: ['i'], valueHint: 'TEXT' },
  project: { valueHint: 'PROJECT_ID' },
  profile: { valueHint: 'NAME' },
  model: { valueHint: 'MODEL' },
  wait: {
    description:
      "Wait for the result (default); --no-wait hands the job to a background worker and prints its task id ('gflow task wait ID' follows it).",
  },
  prompt: { omit: true },
};

/** CLI-only generation flags: --out DIR (flat files in DIR) and --sandbox. */
export function generationExtraFlags(): FlagSpec[] {
  return [
    flag({
      key: 'out',
      kind: 'string',
      valueHint: 'DIR',
      description: 'Write the files flat into DIR, each named by its media id (instead of the dated output tree).',
    }),
    SANDBOX_FLAG,
  ];
}

/** A local path is resolved against the working directory; a Flow media id or a data URL is kept as is. */
export function localOrMediaId(cwd: string, value: string): string {
  // An image inline (data:image/png;base64,…) is the image itself, not a path.
  if (value.startsWith('data:')) return value;
  if (FLOW_ID.test(value) && !fs.existsSync(path.resolve(cwd, value))) return value;
  return path.resolve(cwd, value);
}

/** Paths become absolute against the working directory; --out DIR is the flat output_dir. */
export function generationInput(
  input: Record<string, unknown>,
  values: ParsedValues,
  ctx: LeafContext,
): Record<string, unknown> {
  const next = { ...input };
  if (typeof values['output'] === 'string' && typeof values['out'] === 'string') {
    throw new UsageError('Use either -o/--output FILE or --out DIR, not both.', { extensions: { parameter: 'out' } });
  }
  if (typeof next['output'] === 'string') {
    const raw = next['output'];
    next['output'] = /[/\\]$/.test(raw) ? `${path.resolve(ctx.cwd, raw)}${path.sep}` : path.resolve(ctx.cwd, raw);
  }
  if (typeof values['out'] === 'string') next['output_dir'] = path.resolve(ctx.cwd, values['out']);
  for (const key of ['initial_frame', 'end_frame'] as const) {
    if (typeof next[key] === 'string') next[key] = localOrMediaId(ctx.cwd, next[key]);
  }
  if (Array.isArray(next['reference_images']))
    next['reference_images'] = next['reference_images'].map((v: unknown) =>
      typeof v === 'string' ? localOrMediaId(ctx.cwd, v) : v,
    );
  return next;
}

interface GenerationResultView {
  readonly status: string;
  readonly task_id?: string;
  readonly files?: readonly string[];
  readonly notes?: readonly string[];
  readonly flow_project_id?: string | null;
  readonly flow_media_id?: string | null;
  readonly flow_media_ids?: readonly string[];
  readonly media?: ReadonlyArray<{ readonly media_id?: unknown }>;
  readonly error?: unknown;
  readonly credits_quoted?: number | null;
  readonly characters?: ReadonlyArray<{ readonly id: string; readonly name: string }>;
}

/**
 * A job stopped by Ctrl-C / SIGTERM: before the submit nothing was sent; after it (indeterminate)
 * credits may have been spent, so the message names the task, the project and the media Flow
 * named, and the command that fetches them without spending.
 */
function interrupted(r: GenerationResultView): CancelledError {
  const media = r.flow_media_ids ?? (r.flow_media_id ? [r.flow_media_id] : []);
  if (r.status === 'cancelled') {
    return new CancelledError(`Interrupted before the submit; nothing was sent to Flow (task ${r.task_id ?? '?'}).`, {
      extensions: { task_id: r.task_id },
    });
  }
  const where = [
    `task ${r.task_id ?? '?'}`,
    ...(r.flow_project_id ? [`project ${r.flow_project_id}`] : []),
    ...(media.length ? [`media ${media.join(', ')}`] : []),
  ].join(', ');
  return new CancelledError(`Interrupted after the submit: credits may have been spent (${where}).`, {
    remediationHint: media.length
      ? `Flow may still finish it: fetch it later with ${media.map((id) => `'gflow data download ${id}'`).join(' and ')} (spends nothing).`
      : `Check the Flow project${r.flow_project_id ? ` ${r.flow_project_id}` : ''} before retrying: credits may have been spent.`,
    extensions: { task_id: r.task_id, flow_project_id: r.flow_project_id ?? null, flow_media_ids: media },
  });
}

/**
 * The failure with the ids its envelope names (the project, the media Flow made), so the terminal's
 * Error lines say where to look when credits may have gone; the same class, code and hint.
 */
function withEnvelopeIds(failure: GflowError, r: GenerationResultView): GflowError {
  const media = r.flow_media_ids ?? (r.flow_media_id ? [r.flow_media_id] : []);
  const known = failure.extensions;
  const add = {
    ...(r.flow_project_id && known['flow_project_id'] === undefined ? { flow_project_id: r.flow_project_id } : {}),
    ...(media.length && known['flow_media_ids'] === undefined ? { flow_media_ids: [...media] } : {}),
  };
  if (Object.keys(add).length === 0) return failure;
  const Class = failure.constructor as new (detail: string, options: GflowErrorOptions) => GflowError;
  return new Class(failure.detail, {
    cause: failure,
    ...(failure.remediationHint === undefined ? {} : { remediationHint: failure.remediationHint }),
    ...(failure.retryableOverride === undefined ? {} : { retryable: failure.retryableOverride }),
    correlationId: failure.correlationId,
    ...(failure.incident === undefined ? {} : { incident: failure.incident }),
    extensions: { ...known, ...add },
  });
}

function isProblem(error: unknown): error is ProblemDetails {
  return !!error && typeof error === 'object' && typeof (error as { type?: unknown }).type === 'string';
}

function failureOf(error: unknown, status: string): GflowError {
  if (isProblem(error)) return fromProblem(error);
  // An unknown prompt tool is a bad argument (exit 2), whichever surface reports it as `invalid_tools`.
  if (status === 'invalid_tools')
    return new BadParameterError(typeof error === 'string' ? error : 'Unknown prompt tool.', {
      remediationHint: "See 'gflow tools list' for the prompt tools; nothing was sent to Flow.",
      extensions: { parameter: 'tools' },
    });
  return new GflowError(typeof error === 'string' ? error : `The generation ended ${status}.`);
}

interface EstimateView {
  readonly credits_quoted?: number | null;
  readonly balance?: number | null;
  readonly flow_project_id?: string | null;
  readonly plan?: { readonly quote_source?: string; readonly submitted?: string };
  readonly budget?: { readonly would_refuse?: string | null; readonly today_quoted?: number };
  readonly uploads?: ReadonlyArray<{ readonly display_name: string; readonly media_id: string }>;
}

/** A dry run: the quote, the balance, whether a budget would refuse it, and the uploads it had to make. */
function renderEstimate(r: EstimateView): string {
  const quoted =
    r.credits_quoted === null || r.credits_quoted === undefined ? 'unreadable' : `${r.credits_quoted} credits`;
  const refuse = r.budget?.would_refuse ?? null;
  const lines = [
    `Estimate: ${quoted} (balance ${r.balance ?? 'unknown'}); nothing was submitted.`,
    ...(refuse === null ? [] : [`A submit would be refused by the budget (${refuse}).`]),
    ...(r.uploads?.length
      ? [`Uploaded (kept in the project): ${r.uploads.map((u) => `${u.display_name} ${u.media_id}`).join(', ')}`]
      : []),
  ];
  return `${lines.join('\n')}\n${renderFields({ project: r.flow_project_id, quote_source: r.plan?.quote_source })}`;
}

/** "1 image in project 4e26…: /out/…/x.jpg", "2 videos in project …: /out/…/2026-12-02/" (the summary line). */
function madeSummary(r: GenerationResultView, commandPath: string): string {
  const files = r.files ?? [];
  const noun = /^video\b/.test(commandPath) || files.every((f) => /\.(mp4|gif|webm)$/i.test(f)) ? 'video' : 'image';
  const count = Math.max(files.length, r.flow_media_ids?.length ?? (r.flow_media_id ? 1 : 0));
  const what = `${count} ${noun}${count === 1 ? '' : 's'}`;
  const where =
    files.length === 0 ? '' : `: ${files.length === 1 ? files[0] : `${path.dirname(files[0]!)}${path.sep}`}`;
  return `Made ${what}${r.flow_project_id ? ` in project ${r.flow_project_id}` : ''}${where}`;
}

/**
 * Files first (one per line, easy to pipe), then the ids. A reply whose status
 * is a failure (core's FAILURE_STATUSES) exits with its error's code: --json
 * keeps the task envelope (its `error` always a problem document, as every
 * failure envelope's is), a terminal gets the usual Error/Hint lines.
 */
export function renderGeneration(result: unknown, ctx: LeafContext): LeafOutput {
  const r = result as GenerationResultView;
  if (r.status === 'completed') {
    const files = (r.files ?? []).join('\n');
    // Every media id of the run (-n 2 makes two), not only the first.
    const mediaIds = (r.media ?? []).map((m) => m.media_id).filter((id): id is string => typeof id === 'string');
    const ids = renderFields({
      task_id: r.task_id,
      project: r.flow_project_id,
      media: mediaIds.length > 0 ? mediaIds.join(', ') : r.flow_media_id,
      // The saved characters that went with the submit (an `@Name` the prompt resolved too).
      ...(r.characters?.length ? { characters: r.characters.map((c) => `${c.name} (${c.id})`).join(', ') } : {}),
      ...(r.credits_quoted === undefined ? {} : { credits_quoted: r.credits_quoted ?? 'unreadable' }),
    });
    return {
      data: result,
      text: files ? `${files}\n${ids}` : ids,
      summary: madeSummary(r, ctx.commandPath),
      ...(r.notes?.length ? { notes: r.notes } : {}),
    };
  }
  if (r.status === 'estimated') return { data: result, text: renderEstimate(result as EstimateView) };
  // Not completed and not a failure: pending (wait=false).
  if (!isFailureStatus(r.status)) {
    const id = r.task_id ?? '?';
    return {
      data: result,
      text: `Queued: task ${id}\nFollow it with 'gflow task wait ${id}'; stop it with 'gflow task cancel ${id}'.`,
    };
  }
  const failure =
    r.status === 'cancelled' || r.status === 'indeterminate' ? interrupted(r) : failureOf(r.error, r.status);
  return failedOutput(result, failure, ctx);
}

/**
 * A failed job's output: on a terminal the error (Error/Hint lines); with --json the one failure
 * shape — the job's own status and ids, `error` always a problem document — and the error's exit code.
 */
export function failedOutput(result: unknown, failure: GflowError, ctx: LeafContext): LeafOutput {
  if (!ctx.json) throw withEnvelopeIds(failure, result as GenerationResultView);
  const r = result as { error?: unknown; flow_project_id?: string | null };
  return {
    data: {
      ...(result as object),
      error: isProblem(r.error) ? r.error : toErrorEnvelopeBody(failure, { flowProjectId: r.flow_project_id }),
    },
    exitCode: exitCodeOf(failure) || 1,
  };
}
