import type { Catalog } from '@gflow/catalog';
import { FLOW_ID } from '../schemas/params.js';
import { newestFirst, recentMedia } from './recentMedia.js';

/** Newest media of a project listed in its summary. */
export const PROJECT_MEDIA_SHOWN = 20;
/**
 * The catalog lists media by kind and profile, not by project: the summary
 * filters the newest rows of each kind in memory, at most this many.
 */
export const PROJECT_MEDIA_SCAN = 1000;
/** Project pages read to find the project's counts (1000 rows each). */
const PROJECT_PAGES = 10;

export interface ProjectSummary {
  readonly project_id: string;
  readonly title: string | null;
  readonly profile: string;
  readonly source: string;
  readonly created_at: string;
  /** From the catalog's project listing; null when the project is not among its newest 10,000 in this profile. */
  readonly image_count: number | null;
  readonly video_count: number | null;
  /** Other profiles that catalogued the same project id (their rows are not summarised here). */
  readonly other_profiles?: readonly string[];
  readonly newest_media: ReadonlyArray<{
    readonly media_id: string;
    readonly kind: string;
    readonly model: string | null;
    readonly created_at: string;
    /** Local copies recorded in the catalog (absolute paths; not re-verified here). */
    readonly files: readonly string[];
  }>;
  readonly media_scan: { readonly rows_per_kind: number; readonly complete: boolean };
}

/** The summary of a catalogued project, or undefined when no profile has it. */
export function projectSummary(catalog: Catalog, projectId: string): ProjectSummary | undefined {
  if (!FLOW_ID.test(projectId)) return undefined;
  const rows = catalog.profiles
    .list()
    .map((profile) => catalog.projects.get(profile.name, projectId))
    .filter((row): row is NonNullable<typeof row> => row !== undefined)
    .sort((a, b) => newestFirst({ createdAt: a.createdAt, assetId: a.id }, { createdAt: b.createdAt, assetId: b.id }));
  const [project, ...others] = rows;
  if (!project) return undefined;
  const counts = projectCounts(catalog, project.profileName, projectId);
  const scan = recentMedia(catalog, { perKind: PROJECT_MEDIA_SCAN, profile: project.profileName });
  const media = scan.items.filter((row) => row.projectId === projectId).slice(0, PROJECT_MEDIA_SHOWN);
  return {
    project_id: projectId,
    title: project.title,
    profile: project.profileName,
    source: project.source,
    created_at: project.createdAt,
    image_count: counts?.imageCount ?? null,
    video_count: counts?.videoCount ?? null,
    ...(others.length > 0 ? { other_profiles: others.map((row) => row.profileName) } : {}),
    newest_media: media.map((row) => ({
      media_id: row.mediaId,
      kind: row.kind,
      model: row.model,
      created_at: row.createdAt,
      files: catalog.localFiles
        .listForAsset(row.assetId)
        .filter((file) => file.storageProvider === null)
        .map((file) => file.path),
    })),
    media_scan: { rows_per_kind: PROJECT_MEDIA_SCAN, complete: scan.complete },
  };
}

function projectCounts(
  catalog: Catalog,
  profile: string,
  projectId: string,
): { imageCount: number; videoCount: number } | undefined {
  for (let page = 0; page < PROJECT_PAGES; page += 1) {
    const { items, hasMore } = catalog.projects.list({ profile, limit: 1000, offset: page * 1000 });
    const found = items.find((item) => item.projectId === projectId);
    if (found) return found;
    if (!hasMore) return undefined;
  }
  return undefined;
}
