import { ReferenceNotFoundError } from '@gflow/errors';
import { validateProfileName } from '@gflow/core';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import { defineGroup, defineLeaf } from '../command/commandSpec.js';
import { operationLeaf } from '../command/operationLeaf.js';
import { opSchema } from '../command/opSchema.js';
import { renderFields, renderTable } from '../output/table.js';

interface ProjectsResult {
  readonly projects: ReadonlyArray<Record<string, unknown>>;
  readonly has_more?: boolean;
  readonly next_offset?: number | null;
}

const list = operationLeaf({
  name: 'list',
  description: 'Recent projects from the local catalog (newest first).',
  operation: 'listProjects',
  schema: opSchema('listProjects'),
  overrides: { profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' } },
  examples: ['gflow project list', 'gflow project list --profile work --limit 10 --json'],
  render: (result) => {
    const r = result as ProjectsResult;
    const table = renderTable(['PROJECT', 'TITLE', 'PROFILE', 'CREATED', 'IMAGES', 'VIDEOS'], r.projects.map((p) => [p['project_id'], p['title'], p['profile'], p['created_at'], p['image_count'], p['video_count']]));
    return { data: result, text: r.has_more ? `${table}\nMore: --offset ${r.next_offset}` : table };
  },
});

const show = defineLeaf({
  name: 'show',
  description: 'Show one catalogued project.',
  positionals: () => [{ key: 'project_id', name: 'PROJECT_ID', required: true, description: 'The Flow project id.' }],
  flags: () => [PROFILE_FLAG],
  examples: ['gflow project show 1a2b3c'],
  async run(ctx, values) {
    const gflow = await ctx.gflow();
    const id = String(values['project_id']);
    const profiles = typeof values['profile'] === 'string' ? [validateProfileName(values['profile'])] : gflow.catalog.profiles.list().map((p) => p.name);
    for (const profile of profiles) {
      const row = gflow.catalog.projects.get(profile, id);
      if (row) {
        const project = {
          project_id: row.flowProjectId,
          title: row.title,
          profile: row.profileName,
          source: row.source,
          created_at: row.createdAt,
          updated_at: row.updatedAt,
          url: `https://flow.google.com/project/${id}`,
        };
        const data = { status: 'ok', project };
        return { data, text: renderFields(project) };
      }
    }
    throw new ReferenceNotFoundError('This project id is not in the local catalog.', {
      extensions: { project_id: id },
      remediationHint: "List catalogued projects with 'gflow project list'.",
    });
  },
});

const create = operationLeaf({
  name: 'create',
  description: 'Create a Flow project.',
  operation: 'projectsCreate',
  schema: opSchema('projectsCreate'),
  overrides: { title: { aliases: ['name', 'project-name'] } },
  fallbackFlags: () => [flag({ key: 'title', kind: 'string', aliases: ['name', 'project-name'], description: 'The project title.' }), PROFILE_FLAG],
  examples: ['gflow project create --title "Spring campaign"'],
});

const rename = operationLeaf({
  name: 'rename',
  description: 'Rename a Flow project.',
  operation: 'projectsRename',
  schema: opSchema('projectsRename'),
  positionals: ['project', 'title'],
  fallbackFlags: () => [PROFILE_FLAG],
  examples: ['gflow project rename 1a2b3c "Spring campaign v2"'],
});

export const projectCommand = defineGroup({
  name: 'project',
  description: 'Flow projects.',
  children: { list, show, create, rename },
});
