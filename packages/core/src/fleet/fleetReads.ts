import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { MediaListItem } from '@gflow/catalog';
import { mimeOf, sniffMedia } from '@gflow/flow-facts';
import type { SharedMedia } from '@gflow/fleet';
import type { CatalogMediaRead } from '../catalogViews/readCatalogMedia.js';
import type { ServableFile } from '../gallery/galleryFiles.js';
import type { ProjectSummary } from '../catalogViews/projectSummary.js';
import { FLOW_ID } from '../schemas/params.js';
import type { FleetLink } from './fleetLink.js';

/**
 * The front door's reads on a fleet: what every worker published to the shared catalog, with the
 * files found through the output store (GFLOW_CLI_OUTPUT_DIR, the location every machine mounts).
 * They answer in the shapes the local catalog's reads answer, so the MCP resources and the gallery
 * do not know which they read.
 */

/** A shared media row as a catalog listing row (what the fleet does not record is null). */
export function listItemOf(link: FleetLink, m: SharedMedia, index: number): MediaListItem {
  const path = m.fileKey === null ? null : (link.store.localPath(m.fileKey) ?? null);
  return {
    // Listing rows are numbered for ordering only; the fleet's rows have no local ids.
    assetId: -1 - index,
    mediaId: m.mediaId,
    kind: m.kind,
    profile: m.profile,
    projectId: m.projectId,
    workflowId: null,
    status: 'completed',
    model: m.model,
    aspectRatio: m.aspect,
    width: null,
    height: null,
    durationSeconds: null,
    seed: null,
    displayName: null,
    prompt: m.prompt,
    promptHash: null,
    createdAt: m.createdAt,
    fileCount: path === null ? 0 : 1,
    path,
    bytes: m.bytes,
  };
}

/** The newest media the fleet made, `perKind` of each kind at most, newest first. */
export async function fleetRecentMedia(
  link: FleetLink,
  perKind: number,
): Promise<{ items: MediaListItem[]; complete: boolean }> {
  const [images, videos] = await Promise.all([
    link.shared.recentMedia({ kind: 'image', limit: perKind }),
    link.shared.recentMedia({ kind: 'video', limit: perKind }),
  ]);
  const merged = [...images.items, ...videos.items].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  return { items: merged.map((m, i) => listItemOf(link, m, i)), complete: !images.hasMore && !videos.hasMore };
}

/** A media's bytes from the store, when its size (and recorded SHA-256) still match what the worker published. */
export async function fleetReadMedia(link: FleetLink, mediaId: string, cap: number): Promise<CatalogMediaRead> {
  if (!FLOW_ID.test(mediaId)) return { found: false, reason: 'unknown-id' };
  const media = await link.shared.mediaById(mediaId);
  if (media === undefined) return { found: false, reason: 'unknown-id' };
  const path = media.fileKey === null ? undefined : link.store.localPath(media.fileKey);
  if (path === undefined) return { found: false, reason: 'no-verified-file' };
  const size = fs.statSync(path).size;
  if (size > cap) return { found: false, reason: 'too-large', bytes: size, kind: media.kind };
  const bytes = await fs.promises.readFile(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if ((media.bytes !== null && bytes.length !== media.bytes) || (media.sha256 !== null && sha256 !== media.sha256))
    return { found: false, reason: 'no-verified-file' };
  const extension = sniffMedia(bytes);
  return {
    found: true,
    bytes,
    mimeType: extension === null ? 'application/octet-stream' : mimeOf(extension),
    kind: media.kind,
  };
}

/** A fleet media's file the gallery may send: on the shared mount (inside the output directory), still its published size. */
export async function fleetServableFile(link: FleetLink, mediaId: string): Promise<ServableFile | undefined> {
  if (!FLOW_ID.test(mediaId)) return undefined;
  const media = await link.shared.mediaById(mediaId);
  const path = media?.fileKey ? link.store.localPath(media.fileKey) : undefined;
  if (media === undefined || path === undefined) return undefined;
  const stat = fs.statSync(path);
  if (!stat.isFile() || (media.bytes !== null && stat.size !== media.bytes)) return undefined;
  const head = Buffer.alloc(64);
  const fd = fs.openSync(path, 'r');
  try {
    fs.readSync(fd, head, 0, 64, 0);
  } finally {
    fs.closeSync(fd);
  }
  const extension = sniffMedia(head);
  return {
    mediaId,
    kind: media.kind,
    path,
    bytes: stat.size,
    mimeType: extension === null ? 'application/octet-stream' : mimeOf(extension),
    sha256: media.sha256,
    mtimeMs: stat.mtimeMs,
  };
}

/** A project the fleet's runs made or used, with its newest media (files by their path on the mount). */
export async function fleetProjectSummary(link: FleetLink, projectId: string): Promise<ProjectSummary | undefined> {
  if (!FLOW_ID.test(projectId)) return undefined;
  const project = await link.shared.project(projectId);
  if (project === undefined) return undefined;
  const files = (m: SharedMedia): string[] => {
    const path = m.fileKey === null ? undefined : link.store.localPath(m.fileKey);
    return path === undefined ? [] : [path];
  };
  return {
    project_id: project.projectId,
    title: project.title,
    profile: project.profile,
    source: 'fleet',
    created_at: project.createdAt,
    image_count: project.media.filter((m) => m.kind === 'image').length,
    video_count: project.media.filter((m) => m.kind === 'video').length,
    newest_media: project.media.slice(0, 20).map((m) => ({
      media_id: m.mediaId,
      kind: m.kind,
      model: m.model,
      created_at: m.createdAt,
      files: files(m),
    })),
    media_scan: { rows_per_kind: project.media.length, complete: true },
  };
}
