// The local catalog's reads and housekeeping, as operations: `gflow data …`, `gflow project show`
// and a library user run the same code, and the MCP catalog resources read through the ones
// surfaced for them. No browser; nothing is spent. The rows are the catalog's, in snake_case.
import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, NoProfileError, ReferenceNotFoundError, UsageError } from '@gflow/errors';
import type { Catalog, MediaListItem } from '@gflow/catalog';
import { flowProjectUrl } from '@gflow/flow-facts';
import { z } from 'zod';
import { assetParameters } from '../catalogViews/assetParameters.js';
import { projectSummary } from '../catalogViews/projectSummary.js';
import { checkBrowser, checkCatalog, checkHome } from '../health/doctorChecks.js';
import { checkpointWal, fixHomeMode, hashUnhashedFiles, pruneMissingFileRows } from '../health/doctorFixes.js';
import { checkConfigToml, checkDeprecatedSettings, checkProfiles } from '../health/homeChecks.js';
import { MEDIA_RESOURCE_CAP_BYTES, isServable, readCatalogMedia } from '../catalogViews/readCatalogMedia.js';
import { recentMedia } from '../catalogViews/recentMedia.js';
import { listProfileNames, validateProfileName } from '../home/profiles.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import * as S from './catalogSchemas.js';
import { FLOW_ID, flowId } from './generationSchemas.js';
import { defineOperation } from './operation.js';

/** `profile`: one profile; absent (or "default") for every profile. */
const anyProfile = z.string().trim().min(1).optional().describe('Only this profile (default: every profile).');
/** A page of a local listing: 1..1000 rows (default 20), from `offset`. */
const page = {
  limit: z.number().int().min(1).max(1000).default(20).describe('Rows per page, 1–1000.'),
  offset: z.number().int().min(0).default(0).describe('Rows to skip.'),
};

/** The catalog's profile option for `profile` ("default" = every profile). */
export function profileFilter(profile: string | undefined): { profile?: string } {
  return profile === undefined || profile === 'default' ? {} : { profile: validateProfileName(profile) };
}

/**
 * `profile` of a catalog read (a listing, a show, a prune): every profile, or one the home (a
 * profile directory) or the catalog (rows of it) knows. A name neither knows is refused
 * (NoProfileError, exit 2) with the known ones, rather than read as an empty listing.
 */
export function knownProfileFilter(
  runtime: Pick<RuntimeServices, 'catalog' | 'layout'>,
  profile: string | undefined,
): { profile?: string } {
  const filter = profileFilter(profile);
  const name = filter.profile;
  if (name === undefined) return filter;
  const onDisk = listProfileNames(runtime.layout);
  if (onDisk.includes(name) || runtime.catalog.profiles.get(name)) return filter;
  const known = [...new Set([...onDisk, ...runtime.catalog.profiles.list().map((p) => p.name)])].sort();
  throw new NoProfileError(`Profile "${name}" is not known: no profile directory and no catalog rows have it.`, {
    extensions: { parameter: 'profile', available_profiles: known },
    remediationHint: known.length
      ? `Use one of: ${known.join(', ')}; or name no profile to read every profile.`
      : 'No profile is known yet; name no profile to read every profile.',
  });
}

/** One catalogued image or video, as the listings print it. */
export function mediaRow(m: MediaListItem): z.output<typeof S.mediaRow> {
  return {
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
  };
}

type ErrorItem = ReturnType<Catalog['errors']['list']>['items'][number];

/** One failed operation, as `data list errors` and `data errors export` print it. */
export function errorRow(e: ErrorItem): z.output<typeof S.errorRow> {
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

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** `90d`, `24h`, `30m` → the ISO instant that long before `now`; anything else is a usage error (exit 2). */
export function olderThanCutoff(raw: string, now: Date = new Date()): string {
  const match = /^\s*(\d{1,6})\s*([dhm])\s*$/i.exec(raw);
  if (!match) {
    throw new UsageError(
      `--older-than takes a number and a unit d, h or m (e.g. 90d, 24h, 30m); got ${JSON.stringify(raw)}.`,
      { extensions: { parameter: 'older_than' } },
    );
  }
  const unit = (match[2] as string).toLowerCase() as keyof typeof UNIT_MS;
  return new Date(now.getTime() - Number(match[1]) * UNIT_MS[unit]).toISOString();
}

function pageOf<T, R>(
  p: { items: readonly T[]; count: number; offset: number; hasMore: boolean; nextOffset: number | null },
  map: (item: T) => R,
) {
  return {
    status: 'ok' as const,
    items: p.items.map(map),
    count: p.count,
    offset: p.offset,
    has_more: p.hasMore,
    next_offset: p.nextOffset,
  };
}

const local = { kind: 'read', usesBrowser: false, surfaces: ['cli', 'library'] } as const;

export const listMedia = defineOperation({
  name: 'listMedia',
  mcpName: 'gflow_list_media',
  title: 'List catalogued media',
  description:
    'Catalogued images or videos, newest first, paginated; one row per asset (or per local copy with all_copies). Local data only.',
  ...local,
  input: z.object({
    kind: z.enum(['image', 'video']),
    profile: anyProfile,
    ...page,
    all_copies: z.boolean().default(false).describe('One row per local copy instead of one per asset.'),
  }),
  output: S.pageOf(S.mediaRow),
  handler: async (input, { runtime }) =>
    pageOf(
      runtime.catalog.assets.list({
        kind: input.kind,
        limit: input.limit,
        offset: input.offset,
        ...knownProfileFilter(runtime, input.profile),
        ...(input.all_copies ? { allCopies: true } : {}),
      }),
      mediaRow,
    ),
});

export const listProfileActivity = defineOperation({
  name: 'listProfileActivity',
  mcpName: 'gflow_list_profile_activity',
  title: 'Profiles in the catalog',
  description: 'Profiles the catalog has seen, with their project, asset and operation counts. Local data only.',
  ...local,
  input: z.object({ ...page }),
  output: S.pageOf(S.profileActivityRow),
  handler: async (input, { runtime }) => {
    const all = runtime.catalog.profiles.list();
    const items = all.slice(input.offset, input.offset + input.limit);
    const next = input.offset + items.length;
    return {
      status: 'ok' as const,
      items: items.map((p) => ({
        name: p.name,
        profile_dir: p.profileDir,
        project_count: p.projectCount,
        asset_count: p.assetCount,
        operation_count: p.operationCount,
        first_seen_at: p.firstSeenAt,
        last_seen_at: p.lastSeenAt,
      })),
      count: items.length,
      offset: input.offset,
      has_more: next < all.length,
      next_offset: next < all.length ? next : null,
    };
  },
});

export const listErrors = defineOperation({
  name: 'listErrors',
  mcpName: 'gflow_list_errors',
  title: 'Failed operations',
  description: 'Failed operations from the catalog, newest first, paginated. Local data only.',
  ...local,
  input: z.object({ profile: anyProfile, ...page }),
  output: S.pageOf(S.errorRow),
  handler: async (input, { runtime }) =>
    pageOf(
      runtime.catalog.errors.list({
        limit: input.limit,
        offset: input.offset,
        ...knownProfileFilter(runtime, input.profile),
      }),
      errorRow,
    ),
});

export const showMedia = defineOperation({
  name: 'showMedia',
  mcpName: 'gflow_show_media',
  title: 'Show a catalogued asset',
  description:
    'One catalogued asset and its local copies (whether each file still exists). An id catalogued under several profiles is refused with the candidates.',
  ...local,
  input: z.object({ media_id: flowId('media_id').describe('The Flow media id.'), profile: anyProfile }),
  output: z.strictObject({ status: z.literal('ok'), media: S.shownMedia }),
  handler: async (input, { runtime }) => {
    const candidates = runtime.catalog.media.lookup(input.media_id, knownProfileFilter(runtime, input.profile));
    const [first, ...others] = candidates;
    if (!first) {
      throw new ReferenceNotFoundError(`Media id ${input.media_id} is not in the local catalog.`, {
        extensions: { parameter: 'media_id', media_id: input.media_id },
        remediationHint: "List catalogued media with 'gflow data list images' or 'gflow data list videos'.",
      });
    }
    if (others.length) {
      throw new BadParameterError(
        `Media id ${input.media_id} is catalogued under ${candidates.length} profiles; name one with --profile.`,
        {
          extensions: {
            parameter: 'profile',
            candidates: candidates.map((c) => ({
              profile: c.asset.profileName,
              project_id: c.asset.flowProjectId,
              kind: c.asset.kind,
            })),
          },
          remediationHint: 'Run again with --profile NAME.',
        },
      );
    }
    const { asset, files, prompt } = first;
    return {
      status: 'ok' as const,
      media: {
        media_id: asset.flowMediaId,
        kind: asset.kind,
        profile: asset.profileName,
        project_id: asset.flowProjectId,
        workflow_id: asset.flowWorkflowId,
        status: asset.status,
        ...assetParameters(asset),
        display_name: asset.displayName,
        prompt,
        created_at: asset.createdAt,
        files: files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256, exists: fs.existsSync(f.path) })),
      },
    };
  },
});

export const showProject = defineOperation({
  name: 'showProject',
  mcpName: 'gflow_show_project',
  title: 'Show a catalogued project',
  description: 'One catalogued Flow project: title, profile, source, when it was created and updated, its Flow link.',
  ...local,
  input: z.object({ project_id: flowId('project_id').describe('The Flow project id.'), profile: anyProfile }),
  output: z.strictObject({ status: z.literal('ok'), project: S.shownProject }),
  handler: async (input, { runtime }) => {
    const only = knownProfileFilter(runtime, input.profile).profile;
    const profiles = only === undefined ? runtime.catalog.profiles.list().map((p) => p.name) : [only];
    for (const profile of profiles) {
      const row = runtime.catalog.projects.get(profile, input.project_id);
      if (row) {
        return {
          status: 'ok' as const,
          project: {
            project_id: row.flowProjectId,
            title: row.title,
            profile: row.profileName,
            source: row.source,
            created_at: row.createdAt,
            updated_at: row.updatedAt,
            url: flowProjectUrl(row.flowProjectId),
          },
        };
      }
    }
    throw new ReferenceNotFoundError('This project id is not in the local catalog.', {
      extensions: { project_id: input.project_id },
      remediationHint: "List catalogued projects with 'gflow project list'.",
    });
  },
});

export const pruneMissingFiles = defineOperation({
  name: 'pruneMissingFiles',
  mcpName: 'gflow_prune_missing_files',
  title: 'Drop rows of missing local files',
  description:
    'Drops the catalog rows of local copies whose file is gone (rows only; files are never touched). dry_run only reports.',
  ...local,
  kind: 'mutate',
  input: z.object({
    profile: anyProfile,
    dry_run: z.boolean().default(false).describe('Only report what would be dropped.'),
  }),
  output: S.prunedFiles,
  handler: async (input, { runtime }) => {
    const result = runtime.catalog.localFiles.pruneMissing({
      ...knownProfileFilter(runtime, input.profile),
      dryRun: input.dry_run,
    });
    return {
      status: 'ok' as const,
      dry_run: result.dryRun,
      checked: result.checked,
      removed: result.removed.map((r) => ({ id: r.id, asset_id: r.assetId, path: r.path })),
    };
  },
});

const olderThan = z.string().trim().min(1).describe('Only errors older than this (90d, 24h, 30m).');

export const exportErrors = defineOperation({
  name: 'exportErrors',
  mcpName: 'gflow_export_errors',
  title: 'Export failed operations',
  description: 'Failed operations older than older_than (default: all), oldest first, as rows.',
  ...local,
  input: z.object({ older_than: olderThan.optional(), profile: anyProfile }),
  output: S.exportedErrors,
  handler: async (input, { runtime }) => {
    const before =
      input.older_than === undefined ? new Date(Date.now() + 1000).toISOString() : olderThanCutoff(input.older_than);
    return {
      status: 'ok' as const,
      before,
      items: runtime.catalog.errors.exportBefore(before, knownProfileFilter(runtime, input.profile)).map(errorRow),
    };
  },
});

export const pruneErrors = defineOperation({
  name: 'pruneErrors',
  mcpName: 'gflow_prune_errors',
  title: 'Delete old failed-operation records',
  description: 'Deletes failed-operation records older than older_than. dry_run only counts.',
  ...local,
  kind: 'mutate',
  input: z.object({
    older_than: olderThan,
    profile: anyProfile,
    dry_run: z.boolean().default(false).describe('Only count.'),
  }),
  output: S.prunedErrors,
  handler: async (input, { runtime }) => {
    const before = olderThanCutoff(input.older_than);
    const result = runtime.catalog.errors.prune(before, {
      ...knownProfileFilter(runtime, input.profile),
      dryRun: input.dry_run,
    });
    return { status: 'ok' as const, count: result.count, dry_run: result.dryRun, before };
  },
});

// ---- The reads behind the MCP catalog resources (gflow://media/…, gflow://projects/…). They are
// not tools (their surface is the library, which the MCP adapter is a user of): the resources'
// listings, completions and reads call them through `gflow.run`.

const resourceRead = { kind: 'read', usesBrowser: false, surfaces: ['library'] } as const;

export const recentCatalogMedia = defineOperation({
  name: 'recentCatalogMedia',
  mcpName: 'gflow_recent_media',
  title: 'Newest catalogued media',
  description:
    'The newest catalogued images and videos merged newest first, one row per media id; at most per_kind of each kind are read.',
  ...resourceRead,
  input: z.object({
    per_kind: z.number().int().min(1).max(1000).default(50),
    with_files_only: z
      .boolean()
      .default(false)
      .describe('Only media whose local file is still on disk as it was catalogued (same size and SHA-256).'),
  }),
  output: z.strictObject({ status: z.literal('ok'), items: z.array(S.mediaRow), complete: z.boolean() }),
  handler: async (input, { runtime }) => {
    const recent = recentMedia(runtime.catalog, { perKind: input.per_kind });
    // with_files_only: what gflow://media can serve — a copy still on disk as it was catalogued (a
    // deleted, moved or edited file is not offered).
    const servable = input.with_files_only
      ? await Promise.all(recent.items.map((m) => m.fileCount > 0 && isServable(runtime.catalog, m.mediaId)))
      : recent.items.map(() => true);
    return {
      status: 'ok' as const,
      items: recent.items.filter((_m, i) => servable[i]).map(mediaRow),
      complete: recent.complete,
    };
  },
});

export const catalogProjectSummary = defineOperation({
  name: 'catalogProjectSummary',
  mcpName: 'gflow_project_summary',
  title: 'Summary of a catalogued project',
  description:
    'A catalogued Flow project: title, profile, counts, its newest media with their local files; found: false when no profile has it.',
  ...resourceRead,
  input: z.object({ project_id: z.string().max(256) }),
  output: z.looseObject({ status: z.literal('ok'), found: z.boolean() }),
  handler: async (input, { runtime }) => {
    const summary = FLOW_ID.test(input.project_id) ? projectSummary(runtime.catalog, input.project_id) : undefined;
    return summary ? { status: 'ok' as const, found: true, summary } : { status: 'ok' as const, found: false };
  },
});

export const readMediaBytes = defineOperation({
  name: 'readMediaBytes',
  mcpName: 'gflow_read_media',
  title: 'Read a catalogued file',
  description: `The bytes of a catalogued asset from its newest local copy whose size and SHA-256 still match (at most ${MEDIA_RESOURCE_CAP_BYTES / (1024 * 1024)} MiB).`,
  ...resourceRead,
  input: z.object({ media_id: z.string().max(256) }),
  output: z.looseObject({ status: z.literal('ok'), found: z.boolean() }),
  handler: async (input, { runtime }) => {
    const read = await readCatalogMedia(runtime.catalog, input.media_id);
    return { status: 'ok' as const, ...read };
  },
});

export { MEDIA_RESOURCE_CAP_BYTES };

export const doctor = defineOperation({
  name: 'doctor',
  mcpName: 'gflow_doctor',
  title: 'Check the gflow home',
  description:
    'Read-only checks of the home, the settings (also under retired names), the browser gflow would launch, the profiles (signed in, markers, cookies) and the catalog (write-ahead log, integrity, migrations, stuck tasks and operations, missing files, rows without a name or a hash); each finding names its rows and the command that fixes it. Creates nothing.',
  kind: 'read',
  usesBrowser: false,
  surfaces: ['cli', 'library'],
  input: z.object({}),
  output: z.strictObject({ status: z.literal('ok'), checks: z.array(S.doctorCheck) }),
  handler: async (_input, { runtime }) => ({
    status: 'ok' as const,
    checks: [
      checkHome(runtime.layout.home),
      { check: 'settings', severity: 'ok' as const, detail: `loaded (home ${runtime.settings.home})` },
      checkConfigToml(runtime.layout.configToml),
      checkDeprecatedSettings(process.env, [
        { where: '.env in the working directory', file: path.join(process.cwd(), '.env') },
        { where: runtime.layout.dotenv, file: runtime.layout.dotenv },
      ]),
      checkBrowser(runtime.settings),
      ...checkProfiles(runtime.layout),
      ...checkCatalog(runtime.settings.dbPath, () => runtime.catalog, {
        historyPrompts: runtime.settings.historyPrompts,
      }),
    ],
  }),
});

export const doctorFix = defineOperation({
  name: 'doctorFix',
  mcpName: 'gflow_doctor_fix',
  title: 'Repair what the doctor can repair safely',
  description:
    "The doctor's safe repairs: the home tightened to mode 700, the catalog's write-ahead log folded in, the rows of missing local files dropped (rows only; the assets stay), the SHA-256 of unhashed files that still have their recorded size. Deletes no file and sends nothing; every other finding stays the user's to fix.",
  kind: 'mutate',
  usesBrowser: false,
  surfaces: ['cli', 'library'],
  input: z.object({}),
  output: z.strictObject({ status: z.literal('ok'), fixes: z.array(S.doctorFix) }),
  handler: async (_input, { runtime }) => {
    const fixes = [fixHomeMode(runtime.layout.home)];
    if (fs.existsSync(runtime.settings.dbPath)) {
      const catalog = runtime.catalog;
      fixes.push(pruneMissingFileRows(catalog), await hashUnhashedFiles(catalog));
      fixes.push(checkpointWal(catalog, runtime.settings.dbPath));
    }
    return { status: 'ok' as const, fixes };
  },
});
