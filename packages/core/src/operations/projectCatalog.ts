// Projects and profiles as the catalog knows them: `gflow data profiles`, `gflow project show`, and
// the read behind the MCP project resource. No browser; nothing is spent.
import { ReferenceNotFoundError } from '@gflow/errors';
import { flowProjectUrl } from '@gflow/flow-facts';
import { z } from 'zod';
import { projectSummary } from '../catalogViews/projectSummary.js';
import * as S from './catalogSchemas.js';
import { FLOW_ID, flowUuid } from '../schemas/params.js';
import { defineOperation } from './operation.js';
import { anyProfile, knownProfileFilter, local, page, resourceRead } from './catalogParams.js';
import { fleetProjectSummary } from '../fleet/fleetReads.js';

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
export const showProject = defineOperation({
  name: 'showProject',
  mcpName: 'gflow_show_project',
  title: 'Show a catalogued project',
  description: 'One catalogued Flow project: title, profile, source, when it was created and updated, its Flow link.',
  ...local,
  input: z.object({ project_id: flowUuid('project_id').describe('The Flow project id.'), profile: anyProfile }),
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
    const summary = !FLOW_ID.test(input.project_id)
      ? undefined
      : runtime.fleet === undefined
        ? projectSummary(runtime.catalog, input.project_id)
        : await fleetProjectSummary(runtime.fleet, input.project_id);
    return summary ? { status: 'ok' as const, found: true, summary } : { status: 'ok' as const, found: false };
  },
});
