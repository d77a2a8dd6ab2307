import type { Catalog, LinkedAsset, MediaListItem, TaskQueue, TaskRecord } from '@gflow/catalog';
import { isErrorCode, hintForCode, retryableForCode, titleForCode, type ErrorCode } from '@gflow/errors';
import { flowProjectUrl } from '@gflow/flow-facts';
import { assetParameters } from '../catalogViews/assetParameters.js';
import { newestFirst, recentMedia } from '../catalogViews/recentMedia.js';
import { isServable } from './galleryFiles.js';
import { commandLine, recreateCommand } from './recreateCommand.js';
import type {
  GalleryFailure,
  GalleryFilters,
  GalleryLinked,
  GalleryMediaDetail,
  GalleryMediaItem,
  GalleryMediaPage,
  GalleryProject,
  GalleryTask,
} from './galleryTypes.js';

/** Rows of each kind the gallery reads for its grids and filters (newest first). */
export const GALLERY_SCAN_PER_KIND = 2000;
/** Items one grid page shows at most. */
export const GALLERY_PAGE_MAX = 500;
/** Failed operations the failures page reads. */
export const GALLERY_FAILURES_MAX = 200;

/** Every catalogued project, most recently active first. */
export function galleryProjects(catalog: Catalog): GalleryProject[] {
  const scan = recentMedia(catalog, { perKind: GALLERY_SCAN_PER_KIND });
  const newest = new Map<string, { at: string; cover: string | null }>();
  for (const row of scan.items) {
    if (row.projectId === null) continue;
    const key = `${row.profile}\u0000${row.projectId}`;
    const seen = newest.get(key);
    if (!seen) newest.set(key, { at: row.createdAt, cover: row.fileCount > 0 ? row.mediaId : null });
    else if (seen.cover === null && row.fileCount > 0) seen.cover = row.mediaId;
  }
  const projects: GalleryProject[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = catalog.projects.list({ limit: 1000, offset });
    for (const p of page.items) {
      const recent = newest.get(`${p.profile}\u0000${p.projectId}`);
      projects.push({
        project_id: p.projectId,
        title: p.title,
        profile: p.profile,
        flow_url: flowProjectUrl(p.projectId),
        image_count: p.imageCount,
        video_count: p.videoCount,
        created_at: p.createdAt,
        last_activity: recent && recent.at > p.createdAt ? recent.at : p.createdAt,
        cover_media_id: recent?.cover ?? null,
      });
    }
    if (!page.hasMore || offset >= 9000) break;
  }
  return projects.sort((a, b) =>
    a.last_activity === b.last_activity ? 0 : a.last_activity < b.last_activity ? 1 : -1,
  );
}

/** The end of a `until` filter: a bare date includes that whole day. */
function untilBound(until: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.999Z` : until;
}

function itemOf(row: MediaListItem): GalleryMediaItem {
  return {
    media_id: row.mediaId,
    kind: row.kind,
    profile: row.profile,
    project_id: row.projectId,
    model: row.model,
    aspect_ratio: row.aspectRatio,
    width: row.width,
    height: row.height,
    duration_seconds: row.durationSeconds,
    created_at: row.createdAt,
    prompt: row.prompt,
    has_file: row.fileCount > 0,
  };
}

/** The media grid: the newest catalogued media that match every filter given. */
export function galleryMedia(catalog: Catalog, filters: GalleryFilters = {}): GalleryMediaPage {
  return galleryMediaOf(recentMedia(catalog, { perKind: GALLERY_SCAN_PER_KIND }), filters);
}

/** The grid over a scan of the newest media (the local catalog's, or a fleet's shared one). */
export function galleryMediaOf(
  scan: { readonly items: readonly MediaListItem[]; readonly complete: boolean },
  filters: GalleryFilters = {},
): GalleryMediaPage {
  const scoped = filters.project ? scan.items.filter((row) => row.projectId === filters.project) : scan.items;
  const words = (filters.text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const until = filters.until ? untilBound(filters.until) : undefined;
  const matched = scoped.filter(
    (row) =>
      (!filters.kind || row.kind === filters.kind) &&
      (!filters.model || row.model === filters.model) &&
      (!filters.profile || row.profile === filters.profile) &&
      (!filters.since || row.createdAt >= filters.since) &&
      (!until || row.createdAt <= until) &&
      words.every((word) => (row.prompt ?? '').toLowerCase().includes(word)),
  );
  const limit = Math.min(Math.max(1, filters.limit ?? 200), GALLERY_PAGE_MAX);
  const distinct = (values: Array<string | null>): string[] =>
    [...new Set(values.filter((value): value is string => value !== null))].sort();
  return {
    items: matched.slice(0, limit).map(itemOf),
    matched: matched.length,
    facets: { models: distinct(scoped.map((row) => row.model)), profiles: distinct(scoped.map((row) => row.profile)) },
    complete: scan.complete,
  };
}

const linked = (asset: LinkedAsset): GalleryLinked => ({
  media_id: asset.mediaId,
  kind: asset.kind,
  role: asset.role,
  has_file: asset.fileCount > 0,
});

/**
 * One catalogued media with everything the catalog knows about it (the request that made it read
 * from its task row, through the queue port), or undefined for an unknown id.
 */
export async function galleryMediaDetail(
  catalog: Catalog,
  mediaId: string,
  options: {
    readonly outputDir: string;
    readonly profile?: string | undefined;
    readonly exists: (file: string) => boolean;
    readonly tasks: Pick<TaskQueue, 'get'>;
  },
): Promise<GalleryMediaDetail | undefined> {
  const candidates = catalog.media.lookup(mediaId);
  const chosen = candidates.find((c) => c.asset.profileName === options.profile) ?? candidates[0];
  if (!chosen) return undefined;
  const asset = chosen.asset;
  const project = asset.flowProjectId ? catalog.projects.get(asset.profileName, asset.flowProjectId) : undefined;
  const madeBy = catalog.lineage.madeBy(asset.id);
  const operation = madeBy === undefined ? undefined : catalog.operations.get(madeBy);
  const links = madeBy === undefined ? [] : catalog.lineage.assetsOf(madeBy);
  const task = operation?.taskId ? await options.tasks.get(operation.taskId) : undefined;
  const stored = (task?.payload as { input?: unknown } | undefined)?.input;
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(asset.metadataJson) as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  const parameters: Record<string, unknown> = {
    ...assetParameters(asset),
    flow_workflow_id: asset.flowWorkflowId,
    flow_media_generation_id: asset.flowMediaGenerationId,
    display_name: asset.displayName,
    ...metadata,
  };
  const chains = catalog.chains
    .list({ profile: asset.profileName, limit: 200 })
    .filter((chain) => JSON.stringify(chain.state).includes(mediaId))
    .map((chain) => ({ chain_id: chain.chainId, status: chain.status }));
  return {
    media_id: asset.flowMediaId,
    kind: asset.kind,
    profile: asset.profileName,
    other_profiles: candidates.filter((c) => c !== chosen).map((c) => c.asset.profileName),
    project_id: asset.flowProjectId,
    project_title: project?.title ?? null,
    flow_url: asset.flowProjectId ? flowProjectUrl(asset.flowProjectId) : null,
    status: asset.status,
    created_at: asset.createdAt,
    parameters: Object.fromEntries(
      Object.entries(parameters).filter(([, value]) => value !== null && value !== undefined),
    ),
    files: chosen.files
      .filter((file) => file.storageProvider === null)
      .map((file) => ({
        path: file.path,
        bytes: file.bytes,
        media_type: file.mediaType,
        exists: options.exists(file.path),
        servable: isServable(options.outputDir, file),
      })),
    operation: operation
      ? {
          operation_id: operation.id,
          command: operation.command,
          mode: operation.mode,
          status: operation.status,
          surface: operation.surface,
          prompt: operation.prompt,
          expanded_prompt: operation.expandedPrompt,
          prompt_redacted: operation.promptRedacted,
          model: operation.model,
          aspect_ratio: operation.aspectRatio,
          started_at: operation.startedAt,
          completed_at: operation.completedAt,
          credits_quoted: operation.creditsQuoted,
          credits_spent: operation.creditsSpent,
          task_id: operation.taskId,
          inputs: links.filter((l) => l.role !== 'output').map(linked),
          siblings: links.filter((l) => l.role === 'output' && l.mediaId !== mediaId).map(linked),
        }
      : null,
    derived: catalog.lineage.derivedFrom(asset.id).map((d) => ({
      operation_id: d.operationId,
      command: d.command,
      mode: d.mode,
      status: d.status,
      role: d.role,
      started_at: d.startedAt,
      outputs: d.outputs.map(linked),
    })),
    chains,
    recreate_command: recreateCommand(asset.kind, stored, asset.profileName) ?? null,
    download_command: commandLine(['gflow', 'data', 'download', asset.flowMediaId, '--profile', asset.profileName]),
  };
}

function problemOf(task: TaskRecord | undefined): Record<string, unknown> | undefined {
  return task?.error ?? undefined;
}

/** Failed operations, the billed-but-not-downloaded ones first, each with its hint and its one recovery command. */
export async function galleryFailures(
  catalog: Catalog,
  tasks: Pick<TaskQueue, 'get'>,
  limit = GALLERY_FAILURES_MAX,
): Promise<GalleryFailure[]> {
  const rows = catalog.errors.list({ limit: Math.min(limit, 1000) }).items;
  const operations = rows.map((row) => catalog.operations.get(row.operationId));
  // Each failure's task row (its problem, the media its checkpoint named), through the queue port.
  const taskRows = await Promise.all(operations.map((op) => (op?.taskId ? tasks.get(op.taskId) : undefined)));
  const failures = rows.map((row, i): GalleryFailure => {
    const operation = operations[i];
    const task = taskRows[i];
    const problem = problemOf(task);
    const code: ErrorCode | undefined = isErrorCode(row.errorType) ? row.errorType : undefined;
    const incident = problem?.['incident'] as { id?: unknown } | undefined;
    const outputs = catalog.lineage.assetsOf(row.operationId).filter((l) => l.role === 'output');
    const named = new Set(outputs.map((o) => o.mediaId));
    const checkpointIds = task?.checkpoint?.media_ids ?? [];
    const missing = [
      ...outputs.filter((o) => o.fileCount === 0).map((o) => o.mediaId),
      ...checkpointIds.filter((id) => !named.has(id)),
    ];
    return {
      operation_id: row.operationId,
      profile: row.profile,
      command: row.command,
      mode: row.mode,
      project_id: row.projectId,
      model: row.model,
      prompt: operation?.prompt ?? null,
      code: row.errorType,
      title: code ? titleForCode(code) : (row.errorType ?? 'Failed'),
      detail: row.errorDetail,
      retryable:
        typeof problem?.['retryable'] === 'boolean' ? problem['retryable'] : code ? retryableForCode(code) : false,
      hint:
        (typeof problem?.['remediation_hint'] === 'string' ? problem['remediation_hint'] : undefined) ??
        (code ? hintForCode(code) : undefined) ??
        null,
      incident_id: typeof incident?.id === 'string' ? incident.id : null,
      started_at: row.startedAt,
      task_id: operation?.taskId ?? null,
      not_downloaded: [...new Set(missing)].map((mediaId) => ({
        media_id: mediaId,
        recovery_command: commandLine(['gflow', 'data', 'download', mediaId, '--profile', row.profile]),
      })),
    };
  });
  // Billed-but-not-downloaded first (each with its recovery command), then the newest.
  return failures.sort(
    (a, b) =>
      Number(b.not_downloaded.length > 0) - Number(a.not_downloaded.length > 0) ||
      newestFirst(
        { createdAt: a.started_at, assetId: a.operation_id },
        { createdAt: b.started_at, assetId: b.operation_id },
      ),
  );
}

/** Queued and running generation tasks (every process's: the queue's), oldest first. */
export async function galleryTasks(queue: Pick<TaskQueue, 'list'>): Promise<GalleryTask[]> {
  const [working, pending] = await Promise.all(
    (['working', 'pending'] as const).map(async (status) => (await queue.list({ status, limit: 200 })).items),
  );
  return galleryTasksOf([...(working ?? []), ...(pending ?? [])]);
}

/** The running and waiting tasks as the gallery's stream shows them, oldest first. */
function galleryTasksOf(rows: readonly TaskRecord[]): GalleryTask[] {
  return rows
    .map((task) => ({
      task_id: task.taskId,
      profile: task.profile,
      task_type: task.taskType,
      status: task.status,
      phase: task.checkpoint?.phase ?? null,
      may_have_spent: task.checkpoint?.may_have_spent ?? false,
      prompt: (task.payload as { input?: { prompt?: unknown } }).input?.prompt?.toString() ?? null,
      project_id: task.checkpoint?.project_id ?? null,
      media_ids: task.checkpoint?.media_ids ?? [],
      created_at: task.createdAt,
      updated_at: task.updatedAt,
    }))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}
