import { BadParameterError, FlowHostMigratedError } from '@gflow/errors';
import {
  type ImageModelName,
  type VideoModelName,
  judgeImageRequest,
  judgeVideoRequest,
  requireNoViolation,
} from '@gflow/flow-facts';
import type { GenerateImageInput, GenerateVideoInput } from './schemas.js';

/** A media reference as the user gave it: a local path or a generated media UUID. */
export type MediaRef =
  { readonly kind: 'path'; readonly path: string } | { readonly kind: 'media'; readonly mediaId: string };

export const MEDIA_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toMediaRef(value: string): MediaRef {
  return MEDIA_UUID.test(value) ? { kind: 'media', mediaId: value.toLowerCase() } : { kind: 'path', path: value };
}

/** A saved character: its entity id and the display name the `@` picker finds it by. */
export interface CharacterRef {
  readonly entityId: string;
  readonly name: string;
}

/** What an image request will do, once every rule holds: plain data (it travels in the task row). */
export interface ImagePlan {
  readonly kind: 'image';
  readonly mode: 't2i' | 'i2i';
  readonly model: ImageModelName;
  readonly aspect: GenerateImageInput['aspect'];
  readonly count: number;
  readonly references: readonly MediaRef[];
  readonly characters: readonly CharacterRef[];
}

/** What a video request will do, once every rule holds: plain data (it travels in the task row). */
export interface VideoPlan {
  readonly kind: 'video';
  readonly mode: 't2v' | 'i2v' | 'r2v';
  /** Undefined: Flow's default model (no menu change). */
  readonly model?: VideoModelName | undefined;
  readonly aspect: GenerateVideoInput['aspect'];
  readonly count: number;
  /** Undefined: Flow's current setting. */
  readonly duration?: number | undefined;
  readonly resolution?: GenerateVideoInput['resolution'];
  readonly startFrame?: MediaRef | undefined;
  readonly endFrame?: MediaRef | undefined;
  readonly references: readonly MediaRef[];
  readonly characters: readonly CharacterRef[];
}

export type GenerationPlan = ImagePlan | VideoPlan;

/** Pairs saved characters' ids with their names, position by position (flow.google.com finds them by name). */
function pairCharacters(ids: readonly string[] | undefined, names: readonly string[] | undefined): CharacterRef[] {
  const entityIds = ids ?? [];
  const entityNames = names ?? [];
  if (entityIds.length && entityNames.length !== entityIds.length) {
    throw new FlowHostMigratedError(
      'On flow.google.com each reference_entities id must be paired with its display name in reference_entity_names (same position).',
      { extensions: { parameter: 'reference_entity_names' } },
    );
  }
  if (!entityIds.length && entityNames.length)
    throw new BadParameterError('reference_entity_names needs reference_entities ids at the same positions.', {
      extensions: { parameter: 'reference_entity_names' },
    });
  return entityIds.map((entityId, i) => ({ entityId, name: entityNames[i] as string }));
}

/** Every rule of gflow_generate_image that can be checked before any browser work (flow-facts' rule engine). */
export function planImage(input: GenerateImageInput): ImagePlan {
  const references = (input.reference_images ?? []).map(toMediaRef);
  const characters = pairCharacters(input.reference_entities, input.reference_entity_names);
  const { model } = requireNoViolation(
    judgeImageRequest({
      prompt: input.prompt,
      model: input.model,
      aspect: input.aspect,
      count: input.count,
      references: references.length,
      characters,
      uiMode: input.ui_mode,
      instructions: input.instructions?.length ?? 0,
    }),
  );
  return {
    kind: 'image',
    mode: references.length ? 'i2i' : 't2i',
    model: (model as NonNullable<typeof model>).name,
    aspect: input.aspect,
    count: input.count,
    references,
    characters,
  };
}

/** Every rule of gflow_generate_video that can be checked before any browser work (flow-facts' rule engine). */
export function planVideo(input: GenerateVideoInput): VideoPlan {
  const references = (input.reference_images ?? []).map(toMediaRef);
  const characters = pairCharacters(input.reference_entities, input.reference_entity_names);
  const startFrame = input.initial_frame ? toMediaRef(input.initial_frame) : undefined;
  const endFrame = input.end_frame ? toMediaRef(input.end_frame) : undefined;
  const { model, duration } = requireNoViolation(
    judgeVideoRequest({
      prompt: input.prompt,
      mode: input.mode,
      model: input.model,
      aspect: input.aspect,
      count: input.count,
      duration: input.duration,
      resolution: input.resolution,
      startFrame: startFrame?.kind,
      endFrame: endFrame?.kind,
      references: references.length,
      characters,
      uiMode: input.ui_mode,
    }),
  );
  return {
    kind: 'video',
    mode: input.mode,
    model: model?.name,
    aspect: input.aspect,
    count: input.count,
    duration,
    resolution: input.resolution,
    startFrame,
    endFrame,
    references,
    characters,
  };
}
