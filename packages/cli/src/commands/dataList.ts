import type { Gflow } from '@gflow/core';
import { flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import { defineGroup, defineLeaf, type LeafOutput } from '../command/commandSpec.js';
import type { LeafContext } from '../command/leafContext.js';
import { renderTable } from '../output/table.js';
import { DATA_PROFILE_FLAG, LIMIT_FLAG, OFFSET_FLAG, pageOf, profileOption } from './dataFlags.js';

type Rows = Array<Record<string, unknown>>;

function output(rows: Rows, headers: readonly string[], columns: readonly string[], empty: string): LeafOutput {
  const text = rows.length ? renderTable(headers, rows.map((r) => columns.map((c) => r[c]))) : empty;
  return { jsonl: rows, jsonlWhenPiped: true, text };
}

function projectRows(gflow: Gflow, values: ParsedValues): Rows {
  return gflow.catalog.projects.list({ ...pageOf(values), ...profileOption(values) }).items.map((p) => ({
    project_id: p.projectId,
    title: p.title,
    profile: p.profile,
    source: p.source,
    created_at: p.createdAt,
    image_count: p.imageCount,
    video_count: p.videoCount,
  }));
}

function mediaRows(gflow: Gflow, values: ParsedValues, kind: 'image' | 'video'): Rows {
  const page = gflow.catalog.assets.list({ kind, ...pageOf(values), ...profileOption(values), ...(values['all_copies'] === true ? { allCopies: true } : {}) });
  return page.items.map((m) => ({
    media_id: m.mediaId,
    kind: m.kind,
    profile: m.profile,
    project_id: m.projectId,
    workflow_id: m.workflowId,
    status: m.status,
    model: m.model,
    aspect_ratio: m.aspectRatio,
    width: m.width,
    height: m.height,
    duration_seconds: m.durationSeconds,
    seed: m.seed,
    display_name: m.displayName,
    prompt: m.prompt,
    created_at: m.createdAt,
    file_count: m.fileCount,
    path: m.path,
    bytes: m.bytes,
  }));
}

function profileActivityRows(gflow: Gflow, values: ParsedValues): Rows {
  const { limit, offset } = pageOf(values);
  return gflow.catalog.profiles
    .list()
    .slice(offset, offset + limit)
    .map((p) => ({
      name: p.name,
      profile_dir: p.profileDir,
      project_count: p.projectCount,
      asset_count: p.assetCount,
      operation_count: p.operationCount,
      first_seen_at: p.firstSeenAt,
      last_seen_at: p.lastSeenAt,
    }));
}

type ErrorItem = ReturnType<Gflow['catalog']['errors']['list']>['items'][number];

/** One failed operation as `data list errors` and `data errors export` print it. */
export function errorRow(e: ErrorItem): Record<string, unknown> {
  return {
    operation_id: e.operationId,
    profile: e.profile,
    command: e.command,
    mode: e.mode,
    project_id: e.projectId,
    model: e.model,
    error_type: e.errorType,
    error_detail: e.errorDetail,
    started_at: e.startedAt,
    completed_at: e.completedAt,
  };
}

function errorRows(gflow: Gflow, values: ParsedValues): Rows {
  return gflow.catalog.errors.list({ ...pageOf(values), ...profileOption(values) }).items.map(errorRow);
}

function listLeaf(name: string, description: string, options: { profile?: boolean; allCopies?: boolean }, run: (ctx: LeafContext, gflow: Gflow, values: ParsedValues) => LeafOutput) {
  return defineLeaf({
    name,
    description,
    flags: () => [
      ...(options.profile === false ? [] : [DATA_PROFILE_FLAG]),
      LIMIT_FLAG,
      OFFSET_FLAG,
      ...(options.allCopies ? [flag({ key: 'all_copies', name: 'all-copies', kind: 'boolean', description: 'One row per local copy instead of one per asset.' })] : []),
    ],
    examples: [`gflow data list ${name}`, `gflow data list ${name} --limit 100 --json > ${name}.jsonl`],
    async run(ctx, values) {
      pageOf(values);
      const gflow = await ctx.gflow();
      return run(ctx, gflow, values);
    },
  });
}

export const dataListCommand = defineGroup({
  name: 'list',
  description: 'List catalogued projects, images, videos, profiles or errors (JSON Lines with --json or when piped).',
  children: {
    projects: listLeaf('projects', 'Catalogued projects, newest first.', {}, (_c, g, v) =>
      output(projectRows(g, v), ['PROJECT', 'TITLE', 'PROFILE', 'CREATED', 'IMAGES', 'VIDEOS'], ['project_id', 'title', 'profile', 'created_at', 'image_count', 'video_count'], 'No projects in the catalog.'),
    ),
    images: listLeaf('images', 'Catalogued images, newest first.', { allCopies: true }, (_c, g, v) =>
      output(mediaRows(g, v, 'image'), ['MEDIA', 'PROFILE', 'MODEL', 'ASPECT', 'CREATED', 'FILES', 'PATH'], ['media_id', 'profile', 'model', 'aspect_ratio', 'created_at', 'file_count', 'path'], 'No images in the catalog.'),
    ),
    videos: listLeaf('videos', 'Catalogued videos, newest first.', { allCopies: true }, (_c, g, v) =>
      output(mediaRows(g, v, 'video'), ['MEDIA', 'PROFILE', 'MODEL', 'SECONDS', 'CREATED', 'FILES', 'PATH'], ['media_id', 'profile', 'model', 'duration_seconds', 'created_at', 'file_count', 'path'], 'No videos in the catalog.'),
    ),
    profiles: listLeaf('profiles', 'Profiles seen in the catalog, with their activity.', { profile: false }, (_c, g, v) =>
      output(profileActivityRows(g, v), ['PROFILE', 'PROJECTS', 'ASSETS', 'OPERATIONS', 'LAST SEEN'], ['name', 'project_count', 'asset_count', 'operation_count', 'last_seen_at'], 'No profiles in the catalog.'),
    ),
    errors: listLeaf('errors', 'Failed operations, newest first.', {}, (_c, g, v) =>
      output(errorRows(g, v), ['ID', 'PROFILE', 'COMMAND', 'ERROR', 'STARTED', 'DETAIL'], ['operation_id', 'profile', 'command', 'error_type', 'started_at', 'error_detail'], 'No errors in the catalog.'),
    ),
  },
});
