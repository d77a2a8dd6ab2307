import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, UsageError } from '@gflow/errors';
import { assertFlowIdLike } from './mediaId.js';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import { cutoffIso, parseOlderThan } from '../args/olderThan.js';
import { defineGroup, defineLeaf } from '../command/commandSpec.js';
import { operationLeaf } from '../command/operationLeaf.js';
import { opSchema } from '../command/opSchema.js';
import { renderFields } from '../output/table.js';
import { DATA_PROFILE_FLAG, profileOption } from './dataFlags.js';
import { dataListCommand, errorRow } from './dataList.js';

const media = defineLeaf({
  name: 'media',
  description: 'Show one catalogued asset and its local copies. An id found under several profiles is refused with the candidates.',
  positionals: () => [{ key: 'media_id', name: 'MEDIA_ID', required: true, description: 'The Flow media id.' }],
  flags: () => [DATA_PROFILE_FLAG],
  examples: ['gflow data media 3f0c2a1e-…', 'gflow data media 3f0c2a1e-… --profile work --json'],
  async run(ctx, values) {
    const mediaId = assertFlowIdLike(String(values['media_id']));
    const gflow = await ctx.gflow();
    const candidates = gflow.catalog.media.lookup(mediaId, profileOption(values));
    const [first, ...others] = candidates;
    if (!first) {
      throw new BadParameterError(`Media id ${mediaId} is not in the local catalog.`, {
        extensions: { parameter: 'media_id', media_id: mediaId },
        remediationHint: "List catalogued media with 'gflow data list images' or 'gflow data list videos'.",
      });
    }
    if (others.length) {
      throw new BadParameterError(`Media id ${mediaId} is catalogued under ${candidates.length} profiles; name one with --profile.`, {
        extensions: { parameter: 'profile', candidates: candidates.map((c) => ({ profile: c.asset.profileName, project_id: c.asset.flowProjectId, kind: c.asset.kind })) },
        remediationHint: 'Run again with --profile NAME.',
      });
    }
    const { asset, files, prompt } = first;
    ctx.usageProfile = asset.profileName;
    const data = {
      media_id: asset.flowMediaId,
      kind: asset.kind,
      profile: asset.profileName,
      project_id: asset.flowProjectId,
      workflow_id: asset.flowWorkflowId,
      status: asset.status,
      model: asset.model,
      aspect_ratio: asset.aspectRatio,
      width: asset.width,
      height: asset.height,
      duration_seconds: asset.durationSeconds,
      seed: asset.seed,
      display_name: asset.displayName,
      prompt,
      created_at: asset.createdAt,
      files: files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256, exists: fs.existsSync(f.path) })),
    };
    const { files: _files, ...fields } = data;
    const copies = data.files.map((f) => `  ${f.exists ? '' : '(missing) '}${f.path}`).join('\n');
    return { data, text: `${renderFields(fields)}\nfiles:${copies ? `\n${copies}` : ' -'}` };
  },
});

const prune = defineLeaf({
  name: 'prune',
  description: 'Drop catalog rows of local copies whose file is gone (local rows only; files are never touched).',
  flags: () => [flag({ key: 'dry_run', name: 'dry-run', kind: 'boolean', description: 'Only report what would be dropped.' }), DATA_PROFILE_FLAG],
  examples: ['gflow data prune --dry-run', 'gflow data prune'],
  async run(ctx, values) {
    const gflow = await ctx.gflow();
    const result = gflow.catalog.localFiles.pruneMissing({ ...profileOption(values), dryRun: values['dry_run'] === true });
    const data = { status: 'ok', dry_run: result.dryRun, checked: result.checked, removed: result.removed.map((r) => ({ id: r.id, asset_id: r.assetId, path: r.path })) };
    const verb = result.dryRun ? 'Would drop' : 'Dropped';
    return { data, text: `${verb} ${result.removed.length} of ${result.checked} local-file rows.${result.removed.map((r) => `\n  ${r.path}`).join('')}` };
  },
});

const download = operationLeaf({
  name: 'download',
  description: 'Fetch an already generated video again by media id (the recovery path for a billed clip whose download failed; no credits).',
  operation: 'downloadMedia',
  schema: opSchema('downloadMedia'),
  positionals: ['media_id'],
  overrides: { out_dir: { name: 'out', valueHint: 'DIR' } },
  fallbackFlags: () => [PROFILE_FLAG, flag({ key: 'out_dir', name: 'out', kind: 'string', valueHint: 'DIR', description: 'Directory to write into.' })],
  toInput: (input, _values, ctx) => (typeof input['out_dir'] === 'string' ? { ...input, out_dir: path.resolve(ctx.cwd, input['out_dir']) } : input),
  examples: ['gflow data download 7d1e-media-id', 'gflow data download 7d1e-media-id --out ./clips'],
});

const OLDER_THAN = (required: boolean) => flag({ key: 'older_than', name: 'older-than', kind: 'string', valueHint: '90d|24h|30m', ...(required ? { required: true } : {}), description: 'Only errors older than this.' });

const errorsExport = defineLeaf({
  name: 'export',
  description: 'Export failed operations as JSON Lines (to -o FILE, else stdout), oldest first.',
  flags: () => [OLDER_THAN(false), flag({ key: 'output', aliases: ['o'], kind: 'string', valueHint: 'FILE', description: 'Write the JSON Lines to FILE.' }), DATA_PROFILE_FLAG],
  examples: ['gflow data errors export --older-than 90d -o old-errors.jsonl', 'gflow data errors export | jq .error_type'],
  async run(ctx, values) {
    const cutoff = typeof values['older_than'] === 'string' ? cutoffIso(parseOlderThan(values['older_than'])) : new Date(Date.now() + 1000).toISOString();
    const gflow = await ctx.gflow();
    const rows = gflow.catalog.errors.exportBefore(cutoff, profileOption(values)).map(errorRow);
    if (typeof values['output'] !== 'string') return { jsonl: rows, jsonlWhenPiped: true, text: rows.length ? rows.map((r) => JSON.stringify(r)).join('\n') : '' };
    const file = path.resolve(ctx.cwd, values['output']);
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError('-o names a directory; give a file.', { extensions: { parameter: 'output' } });
    const { writeFileAtomic } = await import('@gflow/core');
    await writeFileAtomic(file, Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join('')), 0o600);
    return { data: { status: 'ok', count: rows.length, path: file, before: cutoff }, text: `Exported ${rows.length} errors to ${file}.` };
  },
});

const errorsPrune = defineLeaf({
  name: 'prune',
  description: 'Delete failed-operation records older than --older-than.',
  flags: () => [OLDER_THAN(true), flag({ key: 'dry_run', name: 'dry-run', kind: 'boolean', description: 'Only count.' }), DATA_PROFILE_FLAG],
  examples: ['gflow data errors prune --older-than 90d --dry-run'],
  async run(ctx, values) {
    const cutoff = cutoffIso(parseOlderThan(String(values['older_than'])));
    const gflow = await ctx.gflow();
    const result = gflow.catalog.errors.prune(cutoff, { ...profileOption(values), dryRun: values['dry_run'] === true });
    return { data: { status: 'ok', count: result.count, dry_run: result.dryRun, before: cutoff }, text: `${result.dryRun ? 'Would delete' : 'Deleted'} ${result.count} error records older than ${cutoff}.` };
  },
});

const usage = operationLeaf({
  name: 'usage',
  description: 'Local usage statistics: invocations per week and surface, generations by command, model, status and month.',
  operation: 'usageStats',
  schema: opSchema('usageStats'),
  examples: ['gflow data usage', 'gflow data usage --weeks 4 --json'],
  render: (result) => {
    const r = result as { weeks: number; invocations: { total: number }; generations: { total: number; byStatus: ReadonlyArray<{ status: string; count: number }> } };
    const statuses = r.generations.byStatus.map((s) => `${s.status} ${s.count}`).join(', ') || 'none';
    return { data: result, text: `Last ${r.weeks} weeks: ${r.invocations.total} invocations, ${r.generations.total} generations (${statuses}).\n` };
  },
});

const errorsGroup = defineGroup({ name: 'errors', description: 'Failed-operation records: export, prune.', children: { export: errorsExport, prune: errorsPrune } });

export const dataCommand = defineGroup({
  name: 'data',
  description: 'The local catalog (no browser): list, media, prune, download, errors.',
  children: { list: dataListCommand, media, prune, download, usage, errors: errorsGroup },
  examples: ['gflow data list images --limit 5', 'gflow data media 3f0c2a1e-…', 'gflow data errors export --older-than 30d -o errors.jsonl'],
});

