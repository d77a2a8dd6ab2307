import { BadParameterError, ConfigurationError, ReferenceNotFoundError } from '@gflow/errors';
import type { FlowCharacter } from './characterRows.js';

export type CharacterSelector =
  { readonly id: string; readonly name?: undefined } | { readonly name: string; readonly id?: undefined };

/**
 * Picks exactly one character by entity id or exact display name (seed gflow_character_show).
 * Flow does not enforce unique names, so an ambiguous name is refused with the candidates' ids
 * (exit 11), never resolved arbitrarily.
 */
export function selectCharacter(characters: readonly FlowCharacter[], selector: CharacterSelector): FlowCharacter {
  const hasId = typeof selector.id === 'string' && selector.id !== '';
  const hasName = typeof selector.name === 'string' && selector.name !== '';
  if (hasId === hasName) throw new BadParameterError('Give exactly one of a character id or a display name.');
  if (hasId) {
    const hit = characters.find((c) => c.entity_id === selector.id);
    if (hit === undefined)
      throw new ReferenceNotFoundError(`The project has no character with id ${selector.id ?? ''}.`);
    return hit;
  }
  const hits = characters.filter((c) => c.display_name === selector.name);
  if (hits.length === 1 && hits[0] !== undefined) return hits[0];
  if (hits.length === 0) {
    throw new ReferenceNotFoundError(`The project has no character named ${JSON.stringify(selector.name)}.`, {
      extensions: { candidates: characters.map((c) => ({ entity_id: c.entity_id, display_name: c.display_name })) },
    });
  }
  throw new ConfigurationError(
    `${hits.length} characters are named ${JSON.stringify(selector.name)}; pick one by id.`,
    {
      extensions: { candidates: hits.map((c) => ({ entity_id: c.entity_id, display_name: c.display_name })) },
      remediationHint: 'Pass the entity id of the character you mean (listed under candidates).',
    },
  );
}
