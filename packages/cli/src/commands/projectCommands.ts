import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderFields, renderListing, renderResult } from '../output/table.js';

interface ProjectsResult {
  readonly projects: ReadonlyArray<Record<string, unknown>>;
  readonly offset: number;
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
    const table = renderListing(
      ['PROJECT', 'TITLE', 'PROFILE', 'CREATED', 'IMAGES', 'VIDEOS'],
      r.projects.map((p) => [
        p['project_id'],
        p['title'],
        p['profile'],
        p['created_at'],
        p['image_count'],
        p['video_count'],
      ]),
      'No projects in the catalog yet.',
      r.offset,
    );
    return { data: result, text: r.has_more ? `${table}\nMore: --offset ${r.next_offset}` : table };
  },
});

const show = operationLeaf({
  name: 'show',
  description: 'Show one catalogued project.',
  operation: 'showProject',
  schema: opSchema('showProject'),
  positionals: ['project_id'],
  overrides: { profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' } },
  examples: ['gflow project show 1a2b3c…'],
  render: (result) => ({ data: result, text: renderFields((result as { project: Record<string, unknown> }).project) }),
});

const create = operationLeaf({
  name: 'create',
  description: 'Create a Flow project.',
  operation: 'projectsCreate',
  schema: opSchema('projectsCreate'),
  overrides: { title: { aliases: ['name', 'project-name'] } },
  examples: ['gflow project create --title "Spring campaign"'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

const rename = operationLeaf({
  name: 'rename',
  description: 'Rename a Flow project.',
  operation: 'projectsRename',
  schema: opSchema('projectsRename'),
  positionals: ['project', 'title'],
  examples: ['gflow project rename 1a2b3c… "Spring campaign v2"'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

export const projectCommand = defineGroup({
  name: 'project',
  description: 'Flow projects.',
  children: { list, show, create, rename },
});
