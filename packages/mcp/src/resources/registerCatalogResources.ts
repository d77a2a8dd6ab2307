import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type Resource,
} from '@modelcontextprotocol/server';
import { matchCompletion } from '../flows/completion.js';
import { MEDIA_RESOURCE_CAP_BYTES } from '@gflow/core/surfaces';
import type { GflowLike } from '../gflowPort.js';
import { mediaTypeOfPath } from '../media/mediaTypes.js';
import { MEDIA_TEMPLATE, PROJECT_TEMPLATE, mediaUri, projectUri } from '../media/mediaUri.js';
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
          (await recentMedia(gflow, CATALOG_LIST_LIMIT, true)).slice(0, CATALOG_LIST_LIMIT).map(mediaListEntry),
        ),
      }),
      complete: {
        media_id: (value) =>
          catalogOrFallback(logger, 'media.complete', [], async () =>
            matchCompletion(
              (await recentMedia(gflow, COMPLETION_SCAN, false)).map((row) => row.media_id),
              value,
            ),
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
      const read = await guardCatalogRead(
        logger,
        uri.href,
        async () =>
          (await gflow.run('readMediaBytes', { media_id: mediaId.slice(0, 256) })) as unknown as CatalogMediaRead,
      );
      if (read.found)
        return { contents: [{ uri: uri.href, mimeType: read.mimeType, blob: read.bytes.toString('base64') }] };
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
          : `Media "${mediaId.slice(0, 128)}" has no local file whose size and SHA-256 match the catalog (moved, edited or deleted). ` +
              `Fetch it again from Flow with gflow_download_media {"media_id": "${mediaId.slice(0, 128)}"} (spends nothing), then read this resource again.`,
      );
    },
  );

  server.registerResource(
    PROJECT_TEMPLATE_NAME,
    new ResourceTemplate(PROJECT_TEMPLATE, {
      list: async () => ({
        resources: await catalogOrFallback(logger, 'projects.list', [], async () =>
          projectListEntries(await recentProjects(gflow, CATALOG_LIST_LIMIT)),
        ),
      }),
      complete: {
        project_id: (value) =>
          catalogOrFallback(logger, 'projects.complete', [], async () =>
            matchCompletion(
              unique((await recentProjects(gflow, COMPLETION_SCAN)).map((item) => item.project_id)),
              value,
            ),
          ),
      },
    }),
    {
      title: 'gflow project summary',
      description:
        'A catalogued Flow project as JSON: title, profile, created_at, image/video counts, its newest media ids with their files.',
      mimeType: 'application/json',
      cacheHint: PROJECT_READ_HINT,
    },
    async (uri, variables) => {
      const projectId = String(variables['project_id'] ?? '');
      const read = await guardCatalogRead(
        logger,
        uri.href,
        async () =>
          (await gflow.run('catalogProjectSummary', {
            project_id: projectId.slice(0, 256),
          })) as unknown as ProjectSummaryRead,
      );
      const summary = read.found ? withResources(read.summary) : undefined;
      if (!summary)
        throw new ResourceNotFoundError(uri.href, `No catalogued project with id "${projectId.slice(0, 128)}".`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(summary, null, 2) }] };
    },
  );
}

/** A media row of core's catalog listings (snake_case). */
interface MediaRow {
  readonly media_id: string;
  readonly kind: string;
  readonly model: string | null;
  readonly created_at: string;
  readonly project_id: string | null;
  readonly path: string | null;
  readonly bytes: number | null;
}

interface ProjectRow {
  readonly project_id: string;
  readonly title: string | null;
  readonly profile: string;
  readonly created_at: string;
  readonly image_count: number;
  readonly video_count: number;
}

type CatalogMediaRead =
  | { readonly found: true; readonly bytes: Buffer; readonly mimeType: string; readonly kind: string }
  | { readonly found: false; readonly reason: 'unknown-id' | 'no-verified-file' }
  | { readonly found: false; readonly reason: 'too-large'; readonly bytes: number; readonly kind: string };

type ProjectSummaryRead =
  | { readonly found: false }
  | {
      readonly found: true;
      readonly summary: { readonly newest_media: ReadonlyArray<{ readonly media_id: string }> } & Record<
        string,
        unknown
      >;
    };

/** The newest catalogued media (core's recentCatalogMedia), one row per media id. */
async function recentMedia(gflow: GflowLike, perKind: number, withFilesOnly: boolean): Promise<readonly MediaRow[]> {
  const result = (await gflow.run('recentCatalogMedia', {
    per_kind: perKind,
    with_files_only: withFilesOnly,
  })) as unknown as { items: readonly MediaRow[] };
  return result.items;
}

/** The newest catalogued projects of every profile (core's listProjects). */
async function recentProjects(gflow: GflowLike, limit: number): Promise<readonly ProjectRow[]> {
  const result = (await gflow.run('listProjects', { limit })) as unknown as { projects: readonly ProjectRow[] };
  return result.projects;
}

/** The summary with each newest media's gflow://media resource URI (the MCP view of it). */
function withResources(summary: Extract<ProjectSummaryRead, { found: true }>['summary']): Record<string, unknown> {
  return { ...summary, newest_media: summary.newest_media.map((m) => ({ ...m, resource: mediaUri(m.media_id) })) };
}

function mediaListEntry(row: MediaRow): Resource {
  const mimeType = row.path === null ? undefined : mediaTypeOfPath(row.path);
  return {
    uri: mediaUri(row.media_id),
    name: row.media_id,
    title: `${row.kind} ${row.media_id}`,
    description: `${row.kind}${row.model ? ` (${row.model})` : ''}, ${row.created_at}${row.project_id ? `, project ${row.project_id}` : ''}`,
    ...(mimeType ? { mimeType } : {}),
    ...(row.bytes === null ? {} : { size: row.bytes }),
  };
}

function projectListEntries(projects: readonly ProjectRow[]): Resource[] {
  const seen = new Set<string>();
  return projects
    .filter((item) => !seen.has(item.project_id) && seen.add(item.project_id))
    .map((item) => ({
      uri: projectUri(item.project_id),
      name: item.project_id,
      ...(item.title ? { title: item.title } : {}),
      description: `${item.profile}: ${item.image_count} images, ${item.video_count} videos, created ${item.created_at}`,
      mimeType: 'application/json',
    }));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
