import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';
import { withProfileBrowser } from './browserContext.js';
import { flowId, flowUuid, profileParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

export const characterList = defineOperation({
  name: 'characterList',
  mcpName: 'gflow_character_list',
  title: 'List characters',
  description:
    "Lists a project's saved Flow characters with their entity ids (read-only, no credits; drives a browser session). An entity_id goes to reference_entities, its display_name to reference_entity_names at the same position. An empty list means the project has none.",
  kind: 'read',
  usesBrowser: true,
  input: z.object({ project: flowUuid('project'), profile: profileParam }),
  output: z.looseObject({ status: z.literal('ok'), count: z.number() }),
  handler: async (input, context) => {
    const { listCharacters } = await import('@gflow/driver');
    const characters = await withProfileBrowser(context, input.profile, (browser) =>
      listCharacters(browser, { projectId: input.project, signal: context.signal }),
    );
    return { status: 'ok' as const, project: input.project, characters, count: characters.length };
  },
});

export const characterShow = defineOperation({
  name: 'characterShow',
  mcpName: 'gflow_character_show',
  title: 'Show a character',
  description:
    'Shows one character by entity_id or exact display name (exactly one). An ambiguous name is refused with the candidates, which is the reason to prefer the id. Read-only.',
  kind: 'read',
  usesBrowser: true,
  input: z.object({
    project: flowUuid('project'),
    entity_id: flowId('entity_id').optional(),
    name: z.string().trim().min(1).max(200).optional(),
    profile: profileParam,
  }),
  output: z.looseObject({ status: z.literal('ok') }),
  handler: async (input, context) => {
    if (Boolean(input.entity_id) === Boolean(input.name)) {
      throw new BadParameterError('Give exactly one of entity_id or name.', {
        extensions: { parameter: input.entity_id ? 'name' : 'entity_id' },
      });
    }
    const { showCharacter } = await import('@gflow/driver');
    const selector = input.entity_id ? { id: input.entity_id } : { name: input.name as string };
    const character = await withProfileBrowser(context, input.profile, (browser) =>
      showCharacter(browser, { projectId: input.project, selector, signal: context.signal }),
    );
    return { status: 'ok' as const, project: input.project, character };
  },
});
