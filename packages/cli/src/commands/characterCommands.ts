import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderFields, renderListing, renderTable } from '../output/table.js';

const list = operationLeaf({
  name: 'list',
  description: "List a project's saved characters and their entity ids (read-only; opens a browser).",
  operation: 'characterList',
  schema: opSchema('characterList'),
  examples: ['gflow character list --project 1a2b3c…'],
  render: (result) => {
    const r = result as { characters?: Array<Record<string, unknown>> };
    return {
      data: result,
      text: renderListing(
        ['ENTITY ID', 'NAME', 'VOICE'],
        (r.characters ?? []).map((c) => [c['entity_id'], c['display_name'], c['voice']]),
        'No saved characters in this project yet.',
      ),
    };
  },
});

const show = operationLeaf({
  name: 'show',
  description: 'Show one character by --id or --name (exactly one; an ambiguous name is refused).',
  operation: 'characterShow',
  schema: opSchema('characterShow'),
  overrides: { entity_id: { name: 'id', valueHint: 'ENTITY_ID' } },
  examples: ['gflow character show --project 1a2b3c… --name Mira'],
  render: (result) => {
    const character = (result as { character?: Record<string, unknown> }).character;
    return { data: result, text: character ? renderFields(character) : JSON.stringify(result, null, 2) };
  },
});

const voices = operationLeaf({
  name: 'voices',
  description: 'The preset voices for character TTS (offline).',
  operation: 'characterVoices',
  schema: opSchema('characterVoices'),
  examples: ['gflow character voices', 'gflow character voices --json'],
  render: (result) => {
    const r = result as { voices: Array<{ name: string; description: string }> };
    return {
      data: result,
      text: renderTable(
        ['VOICE', 'DESCRIPTION'],
        r.voices.map((v) => [v.name, v.description]),
      ),
    };
  },
});

export const characterCommand = defineGroup({
  name: 'character',
  description: 'Saved Flow characters.',
  children: { list, show, voices },
});
