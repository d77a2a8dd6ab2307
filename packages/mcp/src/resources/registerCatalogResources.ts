import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, type McpServer, type Resource } from '@modelcontextprotocol/server';
import { matchCompletion } from '../flows/completion.js';
import type { GflowCatalogReader, GflowLike } from '../gflowPort.js';
import { mediaTypeOfPath } from '../media/mediaTypes.js';
import { MEDIA_TEMPLATE, PROJECT_TEMPLATE, mediaUri, projectUri } from '../media/mediaUri.js';
import { projectSummary } from '../media/projectSummary.js';
import { MEDIA_RESOURCE_CAP_BYTES, readCatalogMedia } from '../media/readCatalogMedia.js';
import { recentMedia, type MediaListItem } from '../media/recentMedia.js';
import { catalogOrFallback, guardCatalogRead } from './guardCatalog.js';

export const MEDIA_TEMPLATE_NAME = 'media';
export const PROJECT_TEMPLATE_NAME = 'project';

/** resources/list shows this many of the newest media and projects. */
export const CATALOG_LIST_LIMIT = 50;
/** Completion matches against this many of the newest ids (of each media kind). */
const COMPLETION_SCAN = 200;

/** A media file's bytes do not change under its id: five minutes, like the docs. */
const MEDIA_READ_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;
/** A project summary changes with every generation into it. */
const PROJECT_READ_HINT = { ttlMs: 30_000, cacheScope: 'private' } as const;

const MIB = 1024 * 1024;

/**
 * The catalog resources: gflow://media/{media_id} (a generated file's bytes,
 * from its verified local copy) and gflow://projects/{project_id} (a JSON
 * summary). Both read the local catalog only; no browser opens.
 */
export function registerCatalogResources(server: McpServer, gflow: GflowLike): void {
  const logger = gflow.logger;

  server.registerResource(
    MEDIA_TEMPLATE_NAME,
    new ResourceTemplate(MEDIA_TEMPLATE, {
      list: async () => ({
        resources: await catalogOrFallback(logger, 'media.list', [], async () =>
          recentMedia(await catalogOf(gflow), { perKind: CATALOG_LIST_LIMIT })
            .items.filter((row) => row.fileCount > 0)
            .slice(0, CATALOG_LIST_LIMIT)
            .map(mediaListEntry),
        ),
      }),
      complete: {
        media_id: (value) =>
          catalogOrFallback(logger, 'media.complete', [], async () =>
            matchCompletion(recentMedia(await catalogOf(gflow), { perKind: COMPLETION_SCAN }).items.map((row) => row.mediaId), value),
          ),
      },
    }),
    {
      title: 'gflow media file',
      description:
        `The bytes of a generated image or video from the local catalog (blob, base64), read from a local copy whose size and SHA-256 still match. ` +
        `At most ${MEDIA_RESOURCE_CAP_BYTES / MIB} MiB; for a larger file use the path in the generation result's \`files\`.`,
      cacheHint: MEDIA_READ_HINT,
    },
    async (uri, variables) => {
      const mediaId = String(variables['media_id'] ?? '');
      const read = await guardCatalogRead(logger, uri.href, async () => readCatalogMedia(await catalogOf(gflow), mediaId));
      if (read.found) return { contents: [{ uri: uri.href, mimeType: read.mimeType, blob: read.bytes.toString('base64') }] };
      if (read.reason === 'too-large') {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `This ${read.kind} is ${(read.bytes / MIB).toFixed(1)} MiB, above the ${MEDIA_RESOURCE_CAP_BYTES / MIB} MiB that gflow://media serves. ` +
            'Read the file from its local path instead: the `files` of the generation result (or its file:// resource_link), or the `files` listed in gflow://projects/{project_id}.',
          { uri: uri.href, bytes: read.bytes, cap_bytes: MEDIA_RESOURCE_CAP_BYTES },
        );
      }
      throw new ResourceNotFoundError(
        uri.href,
        read.reason === 'unknown-id'
          ? `No catalogued media with id "${mediaId.slice(0, 128)}".`
          : `Media "${mediaId.slice(0, 128)}" has no local file whose size and SHA-256 match the catalog (moved, edited or deleted).`,
      );
    },
  );

  server.registerResource(
    PROJECT_TEMPLATE_NAME,
    new ResourceTemplate(PROJECT_TEMPLATE, {
      list: async () => ({ resources: await catalogOrFallback(logger, 'projects.list', [], async () => projectListEntries(await catalogOf(gflow))) }),
      complete: {
        project_id: (value) =>
          catalogOrFallback(logger, 'projects.complete', [], async () =>
            matchCompletion(unique((await catalogOf(gflow)).projects.list({ limit: COMPLETION_SCAN }).items.map((item) => item.projectId)), value),
          ),
      },
    }),
    {
      title: 'gflow project summary',
      description: 'A catalogued Flow project as JSON: title, profile, created_at, image/video counts, its newest media ids with their files.',
      mimeType: 'application/json',
      cacheHint: PROJECT_READ_HINT,
    },
    async (uri, variables) => {
      const projectId = String(variables['project_id'] ?? '');
      const summary = await guardCatalogRead(logger, uri.href, async () => projectSummary(await catalogOf(gflow), projectId));
      if (!summary) throw new ResourceNotFoundError(uri.href, `No catalogued project with id "${projectId.slice(0, 128)}".`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(summary, null, 2) }] };
    },
  );
}

/** The catalog, once its code is loaded (a library runtime may not have needed it yet). */
async function catalogOf(gflow: GflowLike): Promise<GflowCatalogReader> {
  await gflow.ready();
  return gflow.catalog;
}

function mediaListEntry(row: MediaListItem): Resource {
  const mimeType = row.path === null ? undefined : mediaTypeOfPath(row.path);
  return {
    uri: mediaUri(row.mediaId),
    name: row.mediaId,
    title: `${row.kind} ${row.mediaId}`,
    description: `${row.kind}${row.model ? ` (${row.model})` : ''}, ${row.createdAt}${row.projectId ? `, project ${row.projectId}` : ''}`,
    ...(mimeType ? { mimeType } : {}),
    ...(row.bytes === null ? {} : { size: row.bytes }),
  };
}

function projectListEntries(catalog: GflowCatalogReader): Resource[] {
  const seen = new Set<string>();
  return catalog.projects
    .list({ limit: CATALOG_LIST_LIMIT })
    .items.filter((item) => !seen.has(item.projectId) && seen.add(item.projectId))
    .map((item) => ({
      uri: projectUri(item.projectId),
      name: item.projectId,
      ...(item.title ? { title: item.title } : {}),
      description: `${item.profile}: ${item.imageCount} images, ${item.videoCount} videos, created ${item.createdAt}`,
      mimeType: 'application/json',
    }));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
