import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderListing } from '../output/table.js';

type Rows = ReadonlyArray<Record<string, unknown>>;

/** One listing command over a core listing operation: JSON Lines with --json or when piped, a table on a terminal. */
function listLeaf(options: {
  name: string;
  description: string;
  operation: string;
  fixed?: Record<string, unknown>;
  headers: readonly string[];
  columns: readonly string[];
  empty: string;
}) {
  return operationLeaf({
    name: options.name,
    description: options.description,
    operation: options.operation,
    schema: opSchema(options.operation),
    ...(options.fixed ? { fixed: options.fixed } : {}),
    overrides: { profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' } },
    examples: [
      `gflow data list ${options.name}`,
      `gflow data list ${options.name} --limit 100 --json > ${options.name}.jsonl`,
    ],
    render: (result) => {
      const r = result as {
        items?: Rows;
        projects?: Rows;
        offset?: number;
        has_more?: boolean;
        next_offset?: number | null;
      };
      const rows = r.items ?? r.projects ?? [];
      const table = renderListing(
        options.headers,
        rows.map((row) => options.columns.map((c) => row[c])),
        options.empty,
        r.offset,
      );
      return {
        jsonl: rows,
        jsonlWhenPiped: true,
        text: r.has_more ? `${table}\nMore: --offset ${r.next_offset}` : table,
      };
    },
  });
}

export const dataListCommand = defineGroup({
  name: 'list',
  description: 'List catalogued projects, images, videos, profiles or errors (JSON Lines with --json or when piped).',
  children: {
    projects: listLeaf({
      name: 'projects',
      description: 'Catalogued projects, newest first.',
      operation: 'listProjects',
      headers: ['PROJECT', 'TITLE', 'PROFILE', 'CREATED', 'IMAGES', 'VIDEOS'],
      columns: ['project_id', 'title', 'profile', 'created_at', 'image_count', 'video_count'],
      empty: 'No projects in the catalog yet.',
    }),
    images: listLeaf({
      name: 'images',
      description: 'Catalogued images, newest first.',
      operation: 'listMedia',
      fixed: { kind: 'image' },
      headers: ['MEDIA', 'PROFILE', 'MODEL', 'ASPECT', 'CREATED', 'FILES', 'PATH'],
      columns: ['media_id', 'profile', 'model', 'aspect_ratio', 'created_at', 'file_count', 'path'],
      empty: 'No images in the catalog yet.',
    }),
    videos: listLeaf({
      name: 'videos',
      description: 'Catalogued videos, newest first.',
      operation: 'listMedia',
      fixed: { kind: 'video' },
      headers: ['MEDIA', 'PROFILE', 'MODEL', 'SECONDS', 'CREATED', 'FILES', 'PATH'],
      columns: ['media_id', 'profile', 'model', 'duration_seconds', 'created_at', 'file_count', 'path'],
      empty: 'No videos in the catalog yet.',
    }),
    profiles: listLeaf({
      name: 'profiles',
      description: 'Profiles seen in the catalog, with their activity.',
      operation: 'listProfileActivity',
      headers: ['PROFILE', 'PROJECTS', 'ASSETS', 'OPERATIONS', 'LAST SEEN'],
      columns: ['name', 'project_count', 'asset_count', 'operation_count', 'last_seen_at'],
      empty: "No profiles in the catalog yet. Run 'gflow auth login'.",
    }),
    errors: listLeaf({
      name: 'errors',
      description: 'Failed operations, newest first.',
      operation: 'listErrors',
      headers: ['ID', 'PROFILE', 'COMMAND', 'ERROR', 'STARTED', 'DETAIL'],
      columns: ['operation_id', 'profile', 'command', 'error_type', 'started_at', 'error_detail'],
      empty: 'No errors in the catalog.',
    }),
  },
});
