/**
 * The image and video model catalog: our names, the aliases users may type,
 * Flow's menu labels (product names, never translated), the wire tokens/keys
 * seen in submit bodies, reference caps and durations. One table serves
 * validation, `gflow models`, gflow_list_models and the driver's choices.
 * Facts from reference/flow-wire.md §3a/§4 and gflow-surfaces.md §7; caps
 * marked `unconfirmed` are our safe assumptions.
 */
export type ImageModelName = 'nano2' | 'nano2-lite' | 'nano-pro' | 'image4';
export type VideoModelName = 'omni_flash' | 'omni_1_2_flash' | 'veo_3_1_lite' | 'veo_3_1_fast' | 'veo_3_1_quality' | 'veo_3_1_lite_lower_priority';

export const IMAGE_ASPECTS = ['9:16', '16:9', '1:1', '4:3', '3:4'] as const;
export const VIDEO_ASPECTS = ['9:16', '16:9'] as const;
export type ImageAspect = (typeof IMAGE_ASPECTS)[number];
export type VideoAspect = (typeof VIDEO_ASPECTS)[number];
export const VIDEO_RESOLUTIONS = ['360p', '720p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

export interface ImageModel {
  readonly name: ImageModelName;
  readonly label: string;
  readonly aliases: readonly string[];
  readonly wireToken: string;
  readonly refCap: number;
  readonly refCapConfirmed: boolean;
  readonly default: boolean;
  /** Offered in flow.google.com's model menu (Imagen 4 is labs-only). */
  readonly onFlowHost: boolean;
}

export interface VideoModel {
  readonly name: VideoModelName;
  readonly label: string;
  readonly aliases: readonly string[];
  /** r2v reference cap (0: the model takes no references). */
  readonly refCap: number;
  readonly durations: readonly number[];
  readonly maxDuration: number;
  /** Longest clip that keeps an end frame (above it Flow drops the end frame). */
  readonly maxDurationWithEndFrame: number;
  readonly resolutions: readonly VideoResolution[];
  readonly family: 'omni' | 'veo';
  /** The driver's name for it (the driver owns Flow's menu labels and wire keys). */
  readonly driverName: 'omni_flash' | 'omni_1_2_flash' | 'veo_lite' | 'veo_fast' | 'veo_quality' | 'veo_lite_lower_priority';
}

export const IMAGE_MODELS: readonly ImageModel[] = [
  { name: 'nano2', label: 'Nano Banana 2', aliases: ['nano2', 'nano2.1', 'narwhal', 'beluga', 'nano-banana-2', 'nano_banana_2', 'nanobanana2'], wireToken: 'NARWHAL', refCap: 8, refCapConfirmed: false, default: true, onFlowHost: true },
  { name: 'nano2-lite', label: 'Nano Banana 2 Lite', aliases: ['nano2-lite', 'nano2_lite', 'harbor_seal', 'nano-banana-2-lite'], wireToken: 'HARBOR_SEAL', refCap: 3, refCapConfirmed: false, default: false, onFlowHost: true },
  { name: 'nano-pro', label: 'Nano Banana Pro', aliases: ['nano-pro', 'nano_pro', 'nanopro', 'gem_pix_2', 'gem-pix-2'], wireToken: 'GEM_PIX_2', refCap: 8, refCapConfirmed: false, default: false, onFlowHost: true },
  { name: 'image4', label: 'Imagen 4', aliases: ['image4', 'imagen4', 'imagen_3_5', 'imagen-3-5'], wireToken: 'IMAGEN_3_5', refCap: 0, refCapConfirmed: false, default: false, onFlowHost: false },
];

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const VIDEO_MODELS: readonly VideoModel[] = [
  { name: 'omni_flash', label: 'Omni 1.1 Flash', aliases: ['omni_flash', 'omni', 'flash', 'omni_1_1_flash'], refCap: 7, durations: [4, 6, 8, 10], maxDuration: 10, maxDurationWithEndFrame: 10, resolutions: ['360p', '720p'], family: 'omni', driverName: 'omni_flash' },
  { name: 'omni_1_2_flash', label: 'Omni 1.2 Flash', aliases: ['omni_1_2_flash', 'omni_1.2_flash', 'omni_1_2'], refCap: 7, durations: range(3, 15), maxDuration: 15, maxDurationWithEndFrame: 10, resolutions: ['360p', '720p'], family: 'omni', driverName: 'omni_1_2_flash' },
  { name: 'veo_3_1_lite', label: 'Veo 3.1 - Lite', aliases: ['veo_3_1_lite', 'veo_lite', 'lite'], refCap: 3, durations: [4, 6, 8], maxDuration: 8, maxDurationWithEndFrame: 8, resolutions: [], family: 'veo', driverName: 'veo_lite' },
  { name: 'veo_3_1_fast', label: 'Veo 3.1 - Fast', aliases: ['veo_3_1_fast', 'veo_fast', 'fast'], refCap: 3, durations: [4, 6, 8], maxDuration: 8, maxDurationWithEndFrame: 8, resolutions: [], family: 'veo', driverName: 'veo_fast' },
  { name: 'veo_3_1_quality', label: 'Veo 3.1 - Quality', aliases: ['veo_3_1_quality', 'veo_quality', 'quality'], refCap: 0, durations: [4, 6, 8], maxDuration: 8, maxDurationWithEndFrame: 8, resolutions: [], family: 'veo', driverName: 'veo_quality' },
  { name: 'veo_3_1_lite_lower_priority', label: 'Veo 3.1 - Lite [Lower Priority]', aliases: ['veo_3_1_lite_lower_priority', 'veo_lite_lp', 'lite_lp', 'lower_priority'], refCap: 3, durations: [4, 6, 8], maxDuration: 8, maxDurationWithEndFrame: 8, resolutions: [], family: 'veo', driverName: 'veo_lite_lower_priority' },
];

/** Durations accepted when no model is named (Flow's default model decides). */
export const DEFAULT_VIDEO_DURATIONS = [4, 6, 8, 10] as const;

/** Alias rule: lowercase, `-`, `.` and spaces become `_`. */
export function normaliseAlias(value: string): string {
  return value.trim().toLowerCase().replace(/[-\s.]+/g, '_');
}

export function findImageModel(value: string): ImageModel | undefined {
  const key = normaliseAlias(value);
  return IMAGE_MODELS.find((m) => m.aliases.some((a) => normaliseAlias(a) === key));
}

export function findVideoModel(value: string): VideoModel | undefined {
  const key = normaliseAlias(value);
  return VIDEO_MODELS.find((m) => m.aliases.some((a) => normaliseAlias(a) === key) || normaliseAlias(m.name) === key);
}

/** Every spelling `--model` / `model` accepts, for messages and completion. */
export function imageModelSpellings(): string[] {
  return IMAGE_MODELS.flatMap((m) => [m.name, ...m.aliases]).filter((v, i, all) => all.indexOf(v) === i);
}

export function videoModelSpellings(): string[] {
  return VIDEO_MODELS.flatMap((m) => [m.name, ...m.aliases]).filter((v, i, all) => all.indexOf(v) === i);
}
