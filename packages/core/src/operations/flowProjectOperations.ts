import { z } from 'zod';
import { withProfileBrowser } from './browserContext.js';
import { flowUuid, profileParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

const projectResult = z.looseObject({ status: z.literal('ok'), project_id: z.string(), title: z.string() });

export const projectsCreate = defineOperation({
  name: 'projectsCreate',
  mcpName: 'gflow_project_create',
  title: 'Create a Flow project',
  description: 'Creates a project in Flow (through its own page) and records it in the catalog. Spends nothing.',
  kind: 'create',
  usesBrowser: true,
  surfaces: ['cli', 'library'],
  input: z.object({ title: z.string().trim().min(1).max(200).optional(), profile: profileParam }),
  output: projectResult,
  handler: async (input, context) => {
    const { createProject } = await import('@gflow/driver');
    return withProfileBrowser(context, input.profile, async (browser, profile) => {
      const created = await createProject(browser, {
        ...(input.title ? { title: input.title } : {}),
        signal: context.signal,
      });
      context.runtime.catalog.projects.upsert({
        profile: profile.name,
        flowProjectId: created.project_id,
        title: created.title,
      });
      return { status: 'ok' as const, project_id: created.project_id, title: created.title, profile: profile.name };
    });
  },
});

export const projectsRename = defineOperation({
  name: 'projectsRename',
  mcpName: 'gflow_project_rename',
  title: 'Rename a Flow project',
  description: 'Renames a project in Flow and in the catalog. Spends nothing.',
  kind: 'mutate',
  usesBrowser: true,
  surfaces: ['cli', 'library'],
  input: z.object({ project: flowUuid('project'), title: z.string().trim().min(1).max(200), profile: profileParam }),
  output: projectResult,
  handler: async (input, context) => {
    const { renameProject } = await import('@gflow/driver');
    return withProfileBrowser(context, input.profile, async (browser, profile) => {
      const renamed = await renameProject(browser, {
        projectId: input.project,
        title: input.title,
        signal: context.signal,
      });
      context.runtime.catalog.projects.upsert({
        profile: profile.name,
        flowProjectId: renamed.project_id,
        title: renamed.title,
      });
      return { status: 'ok' as const, project_id: renamed.project_id, title: renamed.title, profile: profile.name };
    });
  },
});
