import { BadParameterError, FlowHostMigratedError } from '@gflow/errors';
import {
  type ImageModelName,
  type VideoModelName,
  findVideoModel,
  judgeImageRequest,
  judgeVideoRequest,
  requireNoViolation,
} from '@gflow/flow-facts';
import type { ExtendVideoInput, GenerateImageInput, GenerateVideoInput } from './schemas.js';

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

/**
 * What an extension will do: continue one finished clip (a media id of the catalog) with the
 * scene editor's extend entry of a Veo 3.1 model. One result; no references, no characters.
 */
export interface ExtendPlan {
  readonly kind: 'extend';
  readonly mode: 'extend';
  readonly model: VideoModelName;
  readonly count: 1;
  readonly source: { readonly kind: 'media'; readonly mediaId: string };
  readonly references: readonly MediaRef[];
  readonly characters: readonly CharacterRef[];
}

export type GenerationPlan = ImagePlan | VideoPlan | ExtendPlan;

/** The model of the scene editor's extend entry Flow offers when none is named (the one captured, flow-captures §10). */
export const DEFAULT_EXTEND_MODEL: VideoModelName = 'veo_3_1_lite';

/** The rules of gflow_extend_video that need no catalog and no browser: a Veo 3.1 model, a media UUID. */
export function planExtend(input: ExtendVideoInput): ExtendPlan {
  const model = findVideoModel(input.model ?? DEFAULT_EXTEND_MODEL);
  if (model?.family !== 'veo')
    throw new BadParameterError(
      `model: Flow extends clips with its Veo 3.1 models only (veo_lite, veo_fast, veo_quality), not ${JSON.stringify(input.model)}.`,
      { extensions: { parameter: 'model' } },
    );
  return {
    kind: 'extend',
    mode: 'extend',
    model: model.name,
    count: 1,
    source: { kind: 'media', mediaId: input.media_id.toLowerCase() },
    references: [],
    characters: [],
  };
}

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
