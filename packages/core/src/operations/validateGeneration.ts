import { BadParameterError, FlowHostMigratedError, ModelModeIncompatibilityError } from '@gflow/errors';
import {
  DEFAULT_I2V_VIDEO_MODEL,
  R2V_VEO_SECONDS,
  type ImageModel,
  type VideoModel,
  findImageModel,
  findVideoModel,
  imageModelSpellings,
  maxDurationWithEndFrame,
  r2vPinsDuration,
  videoDurationsOf,
  videoModelSpellings,
  videoRefCap,
} from '@gflow/flow-facts';
import type { GenerateImageInput, GenerateVideoInput } from './generationSchemas.js';

/** A media reference as the user gave it: a local path or a generated media UUID. */
export type MediaRef =
  { readonly kind: 'path'; readonly path: string } | { readonly kind: 'media'; readonly mediaId: string };

export const MEDIA_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toMediaRef(value: string): MediaRef {
  return MEDIA_UUID.test(value) ? { kind: 'media', mediaId: value.toLowerCase() } : { kind: 'path', path: value };
}

export interface CharacterRef {
  readonly entityId: string;
  readonly name: string;
}

export interface ImagePlan {
  readonly kind: 'image';
  readonly mode: 't2i' | 'i2i';
  readonly model: ImageModel;
  readonly aspect: GenerateImageInput['aspect'];
  readonly count: number;
  readonly references: readonly MediaRef[];
  readonly characters: readonly CharacterRef[];
}

export interface VideoPlan {
  readonly kind: 'video';
  readonly mode: 't2v' | 'i2v' | 'r2v';
  /** Undefined: Flow's default model (no menu change). */
  readonly model: VideoModel | undefined;
  readonly aspect: GenerateVideoInput['aspect'];
  readonly count: number;
  /** Undefined: Flow's current setting. */
  readonly duration: number | undefined;
  readonly resolution: GenerateVideoInput['resolution'];
  readonly startFrame: MediaRef | undefined;
  readonly endFrame: MediaRef | undefined;
  readonly references: readonly MediaRef[];
  readonly characters: readonly CharacterRef[];
}

const bad = (parameter: string, detail: string): never => {
  throw new BadParameterError(detail, { extensions: { parameter } });
};

function pairCharacters(ids: readonly string[] | undefined, names: readonly string[] | undefined): CharacterRef[] {
  const entityIds = ids ?? [];
  const entityNames = names ?? [];
  if (entityIds.length && entityNames.length !== entityIds.length) {
    throw new FlowHostMigratedError(
      'On flow.google.com each reference_entities id must be paired with its display name in reference_entity_names (same position).',
      {
        extensions: { parameter: 'reference_entity_names' },
      },
    );
  }
  if (!entityIds.length && entityNames.length)
    bad('reference_entity_names', 'reference_entity_names needs reference_entities ids at the same positions.');
  return entityIds.map((entityId, i) => ({ entityId, name: entityNames[i] as string }));
}

/** Resolves the UI arm; gflow drives the classic arm only (auto = classic). */
function resolveUiMode(uiMode: string | undefined, instructions: readonly string[] | undefined): 'classic' {
  const forcedAgentic = (instructions?.length ?? 0) > 0;
  if (forcedAgentic && uiMode === 'classic') {
    bad(
      'ui_mode',
      'instructions force the agentic arm, so ui_mode="classic" with instructions is a conflict; drop one of them.',
    );
  }
  if (forcedAgentic || uiMode === 'agentic') {
    throw new FlowHostMigratedError(
      'The agentic arm (ui_mode="agentic" or instructions) is not available on flow.google.com; nothing was sent.',
      {
        extensions: { parameter: forcedAgentic ? 'instructions' : 'ui_mode' },
      },
    );
  }
  return 'classic';
}

/** Every rule of gflow_generate_image that can be checked before any browser work. */
export function planImage(input: GenerateImageInput): ImagePlan {
  const model =
    findImageModel(input.model) ??
    bad('model', `Unknown image model "${input.model}". Accepted: ${imageModelSpellings().join(', ')}.`);
  resolveUiMode(input.ui_mode, input.instructions);
  if (!model.onFlowHost) {
    throw new FlowHostMigratedError(
      `${model.label} is not offered on flow.google.com; use nano2, nano2-lite or nano-pro.`,
      { extensions: { parameter: 'model' } },
    );
  }
  const references = (input.reference_images ?? []).map(toMediaRef);
  const characters = pairCharacters(input.reference_entities, input.reference_entity_names);
  if (references.length > model.refCap) {
    bad('reference_images', `${model.label} takes at most ${model.refCap} reference images; got ${references.length}.`);
  }
  // A saved character is one more @ mention in the same reference list, so it counts toward the cap.
  if (references.length + characters.length > model.refCap) {
    bad(
      'reference_entities',
      `${model.label} takes at most ${model.refCap} references, saved characters included; got ${references.length} + ${characters.length}.`,
    );
  }
  return {
    kind: 'image',
    mode: references.length ? 'i2i' : 't2i',
    model,
    aspect: input.aspect,
    count: input.count,
    references,
    characters,
  };
}

function videoDuration(input: GenerateVideoInput, model: VideoModel | undefined): number | undefined {
  const { duration, mode } = input;
  if (mode === 'r2v' && r2vPinsDuration(model)) {
    if (duration !== undefined && duration !== R2V_VEO_SECONDS) {
      throw new BadParameterError(
        `r2v on ${model?.label ?? 'the default model'} accepts only duration ${R2V_VEO_SECONDS} (shorter requests drop the references and bill text-to-video); use omni_flash or omni_1_2_flash for ${duration} s.`,
        {
          extensions: { parameter: 'duration' },
        },
      );
    }
    return R2V_VEO_SECONDS;
  }
  if (duration === undefined) return undefined;
  const allowed = videoDurationsOf(model);
  if (!allowed.includes(duration)) {
    bad(
      'duration',
      `duration ${duration} is not offered by ${model?.label ?? 'the default model'}; accepted: ${allowed.join(', ')}.`,
    );
  }
  if (input.end_frame && duration > maxDurationWithEndFrame(model)) {
    bad(
      'duration',
      `${model?.label ?? 'The default model'} keeps an end frame only up to ${maxDurationWithEndFrame(model)} s (above it Flow drops the end frame and bills a start-only clip).`,
    );
  }
  return duration;
}

/** Every rule of gflow_generate_video that can be checked before any browser work. */
export function planVideo(input: GenerateVideoInput): VideoPlan {
  if (input.ui_mode === 'agentic')
    bad(
      'ui_mode',
      'ui_mode="agentic" is not available for video: there is no agentic video driver. Use auto or classic.',
    );
  const model =
    input.model === undefined
      ? undefined
      : (findVideoModel(input.model) ??
        bad('model', `Unknown video model "${input.model}". Accepted: ${videoModelSpellings().join(', ')}.`));
  const frames = Boolean(input.initial_frame || input.end_frame);
  const references = (input.reference_images ?? []).map(toMediaRef);
  const characters = pairCharacters(input.reference_entities, input.reference_entity_names);
  if (input.mode === 'i2v' && !input.initial_frame)
    bad('initial_frame', 'mode i2v needs initial_frame (a local image path or a generated image media id).');
  if (input.mode === 'r2v' && !references.length && !characters.length)
    bad('reference_images', 'mode r2v needs reference_images or reference_entities.');
  if (input.mode !== 'i2v' && frames)
    bad(
      input.initial_frame ? 'initial_frame' : 'end_frame',
      `initial_frame and end_frame belong to mode i2v, not ${input.mode}.`,
    );
  if (input.mode !== 'r2v' && references.length)
    bad('reference_images', `reference_images belong to mode r2v (or gflow_generate_image), not ${input.mode}.`);
  if (input.end_frame && !input.initial_frame) bad('end_frame', 'end_frame needs initial_frame.');
  if (characters.length && input.mode !== 'r2v') {
    throw new FlowHostMigratedError(`Characters can be attached to r2v only on flow.google.com, not ${input.mode}.`, {
      extensions: { parameter: 'reference_entities' },
    });
  }
  const endFrame = input.end_frame ? toMediaRef(input.end_frame) : undefined;
  if (endFrame?.kind === 'media') {
    throw new FlowHostMigratedError(
      'end_frame must be a local file on flow.google.com; a media id end frame is not supported.',
      { extensions: { parameter: 'end_frame' } },
    );
  }
  if (input.resolution && (!model || model.family !== 'omni')) {
    throw new BadParameterError(
      `resolution is supported on the Omni models only${model ? `, not ${model.label}` : '; name model omni_flash or omni_1_2_flash'}. Nothing was spent.`,
      {
        extensions: { parameter: 'resolution' },
      },
    );
  }
  // Saved characters are @ mentions in the same reference list as reference_images: they count toward the cap.
  const mentioned = references.length + characters.length;
  const capParameter = references.length > videoRefCap(model) ? 'reference_images' : 'reference_entities';
  if (input.mode === 'r2v' && model && mentioned > model.refCap) {
    if (model.refCap === 0) {
      throw new ModelModeIncompatibilityError(
        `${model.label} takes no references; r2v needs omni_flash, omni_1_2_flash, veo_lite or veo_fast.`,
        { extensions: { parameter: 'model' } },
      );
    }
    bad(
      capParameter,
      `${model.label} takes at most ${model.refCap} references, saved characters included; got ${mentioned}.`,
    );
  }
  const effectiveModel = model ?? (input.mode === 'i2v' ? findVideoModel(DEFAULT_I2V_VIDEO_MODEL) : undefined);
  if (input.mode === 'r2v' && !model && mentioned > videoRefCap(undefined))
    bad(
      capParameter,
      `Without a model, r2v takes at most ${videoRefCap(undefined)} references (saved characters included); name omni_flash for up to 7.`,
    );
  return {
    kind: 'video',
    mode: input.mode,
    model: effectiveModel,
    aspect: input.aspect,
    count: input.count,
    duration: videoDuration(input, effectiveModel),
    resolution: input.resolution,
    startFrame: input.initial_frame ? toMediaRef(input.initial_frame) : undefined,
    endFrame,
    references,
    characters,
  };
}
