import { z } from 'zod';
import { flowProjectUrl } from '@gflow/flow-facts';
import { usageRecordingEnabled } from '../home/configToml.js';
import { knownProfileFilter } from './catalogParams.js';
import { projectRow } from './catalogSchemas.js';
import { creditUsageOf } from './creditOperations.js';
import { defineOperation } from './operation.js';

export const listProjects = defineOperation({
  name: 'listProjects',
  mcpName: 'gflow_list_projects',
  title: 'List projects',
  description:
    'Recent Flow projects from the local catalog (newest first), paginated: the reply carries count (rows in this page), offset, has_more and next_offset (pass it back as offset; null on the last page). Local data only: no browser, no spend.',
  kind: 'read',
  usesBrowser: false,
  input: z.object({
    profile: z.string().trim().min(1).default('default').describe('A profile name, or "default" for every profile.'),
    limit: z.number().int().min(1).max(200).default(50).describe('Rows per page, 1..200 (default 50).'),
    offset: z.number().int().min(0).default(0).describe('Rows to skip (next_offset of the previous page).'),
  }),
  output: z.strictObject({
    status: z.literal('ok'),
    projects: z.array(projectRow),
    count: z.number().int().min(0),
    offset: z.number().int().min(0),
    has_more: z.boolean(),
    next_offset: z.number().int().min(0).nullable(),
  }),
  handler: async (input, { runtime }) => {
    const page = runtime.catalog.projects.list({
      limit: input.limit,
      offset: input.offset,
      ...knownProfileFilter(runtime, input.profile),
    });
    return {
      status: 'ok' as const,
      projects: page.items.map((p) => ({
        project_id: p.projectId,
        title: p.title,
        profile: p.profile,
        source: p.source,
        created_at: p.createdAt,
        image_count: p.imageCount,
        video_count: p.videoCount,
        url: flowProjectUrl(p.projectId),
      })),
      count: page.count,
      offset: page.offset,
      has_more: page.hasMore,
      next_offset: page.nextOffset,
    };
  },
});

export const usageStats = defineOperation({
  name: 'usageStats',
  mcpName: 'gflow_usage_stats',
  title: 'Usage statistics',
  description:
    "Local gflow usage over the last N weeks (default 12, 1..53): command and tool invocations per week and surface, generations by command, model, status and month from the catalog, and credits: what Flow quoted before each submit (and measured spend) per local day, model and surface, with the budgets (GFLOW_CLI_DAILY_CREDIT_BUDGET, GFLOW_CLI_MAX_CREDITS_PER_CALL) — the numbers of 'gflow credits usage'. Local data only; nothing is uploaded.",
  kind: 'read',
  usesBrowser: false,
  input: z.object({ weeks: z.number().int().min(1).max(53).default(12) }),
  output: z.looseObject({ status: z.literal('ok') }),
  handler: async (input, { runtime }) => {
    runtime.flushUsage();
    const stats = runtime.catalog.usage.stats({ weeks: input.weeks });
    return {
      status: 'ok' as const,
      weeks: stats.weeks,
      since: stats.since,
      until: stats.until,
      telemetry: {
        state: usageRecordingEnabled(runtime.layout.configToml) ? 'on' : 'off',
        switch: 'gflow telemetry on|off (config.toml [telemetry] enabled)',
        upload: {
          enabled: false,
          reason: 'gflow keeps usage statistics on this machine only; nothing is ever uploaded',
        },
      },
      invocations: stats.invocations,
      generations: stats.generations,
      credits: creditUsageOf(runtime, { since: stats.since.slice(0, 10) }),
    };
  },
});
