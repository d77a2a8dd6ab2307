// The catalogued media, as operations: `gflow data list images|videos`, `gflow data media ID`, and
// the reads behind the MCP media resources. No browser; nothing is spent.
import fs from 'node:fs';
import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import { z } from 'zod';
import { assetParameters } from '../catalogViews/assetParameters.js';
import { MEDIA_RESOURCE_CAP_BYTES, isServable, readCatalogMedia } from '../catalogViews/readCatalogMedia.js';
import { recentMedia } from '../catalogViews/recentMedia.js';
import { fleetReadMedia, fleetRecentMedia } from '../fleet/fleetReads.js';
import * as S from './catalogSchemas.js';
import { flowUuid } from '../schemas/params.js';
import { defineOperation } from './operation.js';
import { anyProfile, knownProfileFilter, local, mediaRow, page, pageOf, resourceRead } from './catalogParams.js';

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
export const showMedia = defineOperation({
  name: 'showMedia',
  mcpName: 'gflow_show_media',
  title: 'Show a catalogued asset',
  description:
    'One catalogued asset and its local copies (whether each file still exists). An id catalogued under several profiles is refused with the candidates.',
  ...local,
  input: z.object({ media_id: flowUuid('media_id').describe('The Flow media id.'), profile: anyProfile }),
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
    // On a fleet: what every worker published to the shared catalog (files on the shared mount).
    const fleet = runtime.fleet;
    const recent =
      fleet === undefined
        ? recentMedia(runtime.catalog, { perKind: input.per_kind })
        : await fleetRecentMedia(fleet, input.per_kind);
    // with_files_only: what gflow://media can serve — a copy still on disk as it was catalogued (a
    // deleted, moved or edited file is not offered); on a fleet, a file in the shared store.
    const servable = !input.with_files_only
      ? recent.items.map(() => true)
      : fleet === undefined
        ? await Promise.all(recent.items.map((m) => m.fileCount > 0 && isServable(runtime.catalog, m.mediaId)))
        : recent.items.map((m) => m.fileCount > 0 && m.path !== null && fs.existsSync(m.path));
    return {
      status: 'ok' as const,
      items: recent.items.filter((_m, i) => servable[i]).map(mediaRow),
      complete: recent.complete,
    };
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
    const read =
      runtime.fleet === undefined
        ? await readCatalogMedia(runtime.catalog, input.media_id)
        : await fleetReadMedia(runtime.fleet, input.media_id, MEDIA_RESOURCE_CAP_BYTES);
    return { status: 'ok' as const, ...read };
  },
});
