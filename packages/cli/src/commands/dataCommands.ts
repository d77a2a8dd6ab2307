import fs from 'node:fs';
import path from 'node:path';
import { UsageError, exitCodeForCode } from '@gflow/errors';
import { flag } from '../args/flagSpec.js';
import { type LeafOutput, defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderFields, renderResult } from '../output/table.js';
import { dataListCommand } from './dataList.js';

const media = operationLeaf({
  name: 'media',
  description:
    'Show one catalogued asset and its local copies. An id found under several profiles is refused with the candidates.',
  operation: 'showMedia',
  schema: opSchema('showMedia'),
  positionals: ['media_id'],
  overrides: { profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' } },
  examples: ['gflow data media 3f0c2a1e-…', 'gflow data media 3f0c2a1e-… --profile work --json'],
  render: (result, _values, ctx) => {
    const { files, ...fields } = (
      result as { media: { files: ReadonlyArray<{ path: string; exists: boolean }> } & Record<string, unknown> }
    ).media;
    if (typeof fields['profile'] === 'string') ctx.usageProfile = fields['profile'];
    const copies = files.map((f) => `  ${f.exists ? '' : '(missing) '}${f.path}`).join('\n');
    return {
      data: (result as { media: unknown }).media,
      text: `${renderFields(fields)}\nfiles:${copies ? `\n${copies}` : ' -'}`,
    };
  },
});

const prune = operationLeaf({
  name: 'prune',
  description: 'Drop catalog rows of local copies whose file is gone (local rows only; files are never touched).',
  operation: 'pruneMissingFiles',
  schema: opSchema('pruneMissingFiles'),
  overrides: { profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' } },
  examples: ['gflow data prune --dry-run', 'gflow data prune'],
  render: (result) => {
    const r = result as { dry_run: boolean; checked: number; removed: ReadonlyArray<{ path: string }> };
    return {
      data: result,
      text: `${r.dry_run ? 'Would drop' : 'Dropped'} ${r.removed.length} of ${r.checked} local-file rows.${r.removed.map((x) => `\n  ${x.path}`).join('')}`,
    };
  },
});

const download = operationLeaf({
  name: 'download',
  description:
    'Fetch an already generated video again by media id (the recovery path for a billed clip whose download failed; no credits).',
  operation: 'downloadMedia',
  schema: opSchema('downloadMedia'),
  positionals: ['media_id'],
  overrides: { out_dir: { name: 'out', valueHint: 'DIR' } },
  toInput: (input, _values, ctx) =>
    typeof input['out_dir'] === 'string' ? { ...input, out_dir: path.resolve(ctx.cwd, input['out_dir']) } : input,
  examples: ['gflow data download 7d1e-media-id', 'gflow data download 7d1e-media-id --out ./clips'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

interface SyncedProject {
  readonly project_id: string;
  readonly title: string | null;
  readonly title_set: boolean;
  readonly named: ReadonlyArray<{ media_id: string; name: string }>;
  readonly unnamed: readonly string[];
  readonly error?: { readonly title?: string; readonly detail?: string };
}

/** One line per project read: its id and title, what was named, what is still unnamed or why the page could not be read. */
function renderSync(result: unknown): LeafOutput {
  const r = result as {
    status: string;
    dry_run: boolean;
    named: number;
    titled: number;
    unnamed: number;
    projects: readonly SyncedProject[];
  };
  const verb = r.dry_run ? 'would name' : 'named';
  const lines = r.projects.map((p) => {
    const what = p.error
      ? `not read: ${p.error.title ?? 'Error'}: ${p.error.detail ?? ''}`
      : `${verb} ${p.named.length}${p.title_set ? ', title set' : ''}${p.unnamed.length ? `, still unnamed: ${p.unnamed.join(', ')}` : ''}`;
    return `${p.project_id}  ${p.title ?? '(untitled)'}  ${what}`;
  });
  const total = `${r.dry_run ? 'Would name' : 'Named'} ${r.named} media and title ${r.titled} projects in ${r.projects.length} projects read; ${r.unnamed} media still unnamed.`;
  const text =
    r.projects.length === 0
      ? 'Every catalogued project has its title and every media its name.'
      : [...lines, total].join('\n');
  // A page that could not be read: exit 34 (sync-partial), as the original gflow does.
  return { data: result, text, ...(r.status === 'partial' ? { exitCode: exitCodeForCode('sync-partial') } : {}) };
}

const sync = operationLeaf({
  name: 'sync',
  description:
    "Fill the names and titles the catalog lacks from the project pages in Flow (a browser opens; nothing is spent). Exit 34 when a project's page could not be read.",
  operation: 'syncCatalog',
  schema: opSchema('syncCatalog'),
  overrides: { project: { valueHint: 'PROJECT_ID' }, max_projects: { valueHint: 'N' } },
  examples: ['gflow data sync', 'gflow data sync --project 3f0c2a1e-… --all', 'gflow data sync --dry-run --json'],
  render: renderSync,
});

const PROFILE_OVERRIDE = {
  profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' },
} as const;

const errorsExport = operationLeaf({
  name: 'export',
  description: 'Export failed operations as JSON Lines (to -o FILE, else stdout), oldest first.',
  operation: 'exportErrors',
  schema: opSchema('exportErrors'),
  overrides: { ...PROFILE_OVERRIDE, older_than: { valueHint: '90d|24h|30m' } },
  extraFlags: () => [
    flag({
      key: 'output',
      aliases: ['o'],
      kind: 'string',
      valueHint: 'FILE',
      description: 'Write the JSON Lines to FILE.',
    }),
  ],
  examples: [
    'gflow data errors export --older-than 90d -o old-errors.jsonl',
    'gflow data errors export | jq .error_type',
  ],
  toInput: (input, values, ctx) => {
    if (typeof values['output'] === 'string') {
      const file = path.resolve(ctx.cwd, values['output']);
      if (fs.existsSync(file) && fs.statSync(file).isDirectory())
        throw new UsageError('-o names a directory; give a file.', { extensions: { parameter: 'output' } });
    }
    return input;
  },
  render: async (result, values, ctx) => {
    const { items: rows, before } = result as { items: ReadonlyArray<Record<string, unknown>>; before: string };
    if (typeof values['output'] !== 'string')
      return { jsonl: rows, jsonlWhenPiped: true, text: rows.map((r) => JSON.stringify(r)).join('\n') };
    const file = path.resolve(ctx.cwd, values['output']);
    const { writeFileAtomic } = await import('@gflow/core/surfaces');
    await writeFileAtomic(file, Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join('')), 0o600);
    return {
      data: { status: 'ok', count: rows.length, path: file, before },
      text: `Exported ${rows.length} errors to ${file}.`,
    };
  },
});

const errorsPrune = operationLeaf({
  name: 'prune',
  description: 'Delete failed-operation records older than --older-than.',
  operation: 'pruneErrors',
  schema: opSchema('pruneErrors'),
  overrides: { ...PROFILE_OVERRIDE, older_than: { valueHint: '90d|24h|30m' } },
  examples: ['gflow data errors prune --older-than 90d --dry-run'],
  render: (result) => {
    const r = result as { count: number; dry_run: boolean; before: string };
    return {
      data: result,
      text: `${r.dry_run ? 'Would delete' : 'Deleted'} ${r.count} error records older than ${r.before}.`,
    };
  },
});

const usage = operationLeaf({
  name: 'usage',
  description:
    'Local usage statistics: invocations per week and surface, generations by command, model, status and month.',
  operation: 'usageStats',
  schema: opSchema('usageStats'),
  examples: ['gflow data usage', 'gflow data usage --weeks 4 --json'],
  render: (result) => {
    const r = result as {
      weeks: number;
      invocations: { total: number };
      generations: { total: number; byStatus: ReadonlyArray<{ status: string; count: number }> };
    };
    const statuses = r.generations.byStatus.map((s) => `${s.status} ${s.count}`).join(', ') || 'none';
    return {
      data: result,
      text: `Last ${r.weeks} weeks: ${r.invocations.total} invocations, ${r.generations.total} generations (${statuses}).\n`,
    };
  },
});

const errorsGroup = defineGroup({
  name: 'errors',
  description: 'Failed-operation records: export, prune.',
  children: { export: errorsExport, prune: errorsPrune },
});

export const dataCommand = defineGroup({
  name: 'data',
  description:
    'The local catalog: list, media, prune, errors (no browser); download and sync (read Flow, spend nothing).',
  children: { list: dataListCommand, media, prune, download, sync, usage, errors: errorsGroup },
  examples: [
    'gflow data list images --limit 5',
    'gflow data media 3f0c2a1e-…',
    'gflow data errors export --older-than 30d -o errors.jsonl',
  ],
});
