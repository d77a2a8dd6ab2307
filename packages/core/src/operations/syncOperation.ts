// `gflow data sync` (gflow_sync_catalog, syncCatalog): what the catalog lacks of names and titles,
// read from Flow's own project pages. A browser opens; nothing is submitted and nothing is spent.
import type { Catalog, ProjectToSync } from '@gflow/catalog';
import type { ProjectNames } from '@gflow/driver';
import {
  ConfigurationError,
  type ErrorCode,
  type GflowError,
  hasErrorCode,
  toErrorEnvelopeBody,
  toGflowError,
} from '@gflow/errors';
import { z } from 'zod';
import { flowUuid, profileParam } from '../schemas/params.js';
import { withProfileBrowser } from './browserContext.js';
import { defineOperation } from './operation.js';

/** The failures of one project's page that leave the others to read: the rest (a signed-out profile, a closed browser) stop the sync. */
const PER_PROJECT: readonly ErrorCode[] = [
  // Flow's /404?reason=project landing: the project is gone or another account's.
  'configuration',
  'reference-not-found',
  'wire-format',
  'ui-selector-drift',
  'transport-timeout',
  'flow-app',
];

const syncedProject = z.looseObject({
  project_id: z.string(),
  /** The title the catalog holds after the sync (null: none known). */
  title: z.string().nullable(),
  title_set: z.boolean().describe('Whether the sync wrote the title (dry_run: would write).'),
  named: z.array(z.object({ media_id: z.string(), name: z.string() })),
  unnamed: z
    .array(z.string())
    .describe('Catalogued media of the project the page did not name (not on its grid, or shown without a name).'),
  error: z
    .unknown()
    .optional()
    .describe('Why the page could not be read (RFC 9457 problem); the other projects went on.'),
});

const syncResult = z.looseObject({
  status: z.enum(['ok', 'partial']).describe('partial: a project page could not be read (CLI exit 34); run it again.'),
  profile: z.string(),
  dry_run: z.boolean(),
  /** Names and titles written (or, dry_run, that would be). */
  named: z.number().int().nonnegative(),
  titled: z.number().int().nonnegative(),
  /** Catalogued media still without a name after the sync. */
  unnamed: z.number().int().nonnegative(),
  projects: z.array(syncedProject),
});

/** What one project's page gave the catalog (written unless a dry run). */
function applyNames(
  catalog: Catalog,
  profile: string,
  wanted: ProjectToSync,
  read: ProjectNames,
  options: { readonly all: boolean; readonly dryRun: boolean },
) {
  const shown = new Map(read.media.flatMap((m) => (m.name === null ? [] : [[m.media_id, m.name] as const])));
  const targets = options.all ? catalog.assets.mediaIdsOfProject(profile, wanted.projectId) : wanted.unnamed;
  const named: Array<{ media_id: string; name: string }> = [];
  const now = new Date().toISOString();
  for (const mediaId of targets) {
    const name = shown.get(mediaId);
    const asset = catalog.assets.getByMediaId(profile, mediaId);
    if (name === undefined || asset === undefined || asset.displayName === name) continue;
    named.push({ media_id: mediaId, name });
    if (!options.dryRun)
      catalog.assets.record({
        profile,
        flowMediaId: mediaId,
        kind: asset.kind,
        displayName: name,
        metadata: { sync: { named_at: now, source: 'page' } },
      });
  }
  const titleSet = read.title !== null && read.title !== wanted.title && (options.all || wanted.title === null);
  if (titleSet && !options.dryRun)
    catalog.projects.upsert({ profile, flowProjectId: wanted.projectId, title: read.title });
  const namedIds = new Set(named.map((n) => n.media_id));
  return {
    project_id: wanted.projectId,
    title: titleSet ? read.title : wanted.title,
    title_set: titleSet,
    named,
    unnamed: wanted.unnamed.filter((id) => !namedIds.has(id)),
  };
}

/** A project whose page could not be read: what the catalog still lacks, and why. */
function unread(wanted: ProjectToSync, error: GflowError) {
  return {
    project_id: wanted.projectId,
    title: wanted.title,
    title_set: false,
    named: [],
    unnamed: [...wanted.unnamed],
    error: toErrorEnvelopeBody(error, { flowProjectId: wanted.projectId }),
  };
}

export const syncCatalog = defineOperation({
  name: 'syncCatalog',
  mcpName: 'gflow_sync_catalog',
  title: "Fill names and titles from Flow's project pages",
  description:
    "Reads each project's page in Flow (a browser on the profile; nothing is submitted or spent) for what the catalog lacks: the names Flow lists its media by (what gflow finds them by in the pickers, to attach them in place instead of uploading again) and the project's title. Only projects missing either, newest first, unless all=true (then every name and title is read again). dry_run reports without writing. A page that cannot be read is reported in its project's entry and the others go on (status partial; the CLI exits 34).",
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({
    profile: profileParam,
    project: flowUuid('project').optional().describe('Only this project (default: every project of the profile).'),
    all: z.boolean().default(false).describe('Read every project and name again, also those the catalog already has.'),
    max_projects: z.number().int().min(1).max(500).default(50).describe('At most this many projects, newest first.'),
    dry_run: z.boolean().default(false).describe('Read the pages and report; write nothing.'),
  }),
  output: syncResult,
  handler: async (input, context) => {
    const { runtime } = context;
    if (runtime.settings.historyPrompts === 'redacted')
      throw new ConfigurationError(
        'GFLOW_CLI_HISTORY_PROMPTS=redacted keeps no display names or titles in the catalog, so there is nothing to sync.',
      );
    const { readProjectNames } = await import('@gflow/driver');
    const options = { all: input.all, dryRun: input.dry_run };
    return withProfileBrowser(context, input.profile, async (browser, profile) => {
      const wanted = runtime.catalog.projects.toSync(profile.name, {
        ...(input.project ? { projectId: input.project } : {}),
        all: input.all,
        limit: input.max_projects,
      });
      const projects = [];
      for (const project of wanted) {
        try {
          const read = await readProjectNames(browser, { projectId: project.projectId, signal: context.signal });
          projects.push(applyNames(runtime.catalog, profile.name, project, read, options));
        } catch (thrown) {
          const error = toGflowError(thrown);
          if (!PER_PROJECT.some((code) => hasErrorCode(error, code))) throw error;
          projects.push(unread(project, error));
        }
      }
      return {
        status: projects.some((p) => 'error' in p) ? ('partial' as const) : ('ok' as const),
        profile: profile.name,
        dry_run: input.dry_run,
        named: projects.reduce((n, p) => n + p.named.length, 0),
        titled: projects.filter((p) => p.title_set).length,
        unnamed: projects.reduce((n, p) => n + p.unnamed.length, 0),
        projects,
      };
    });
  },
});
