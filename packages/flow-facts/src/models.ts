/**
 * The image and video models of flow.google.com, as one table. Per model: our name (what
 * `--model`, the `model` parameter, the driver and the catalog use), the aliases users may type,
 * the entries of Flow's model menu that are this model (product names, never translated) with the
 * words that rule out a twin, the token (images) or key family (videos) the page puts in the
 * submit body, reference caps, durations and resolutions. Validation, `gflow models`,
 * gflow_list_models and the driver's menu pick and submit check all read this table.
 *
 * Sources: flow-wire.md §3a "Model keys" and §4 "Model picker", flow-captures.md §7 (Nano Banana
 * 2.1 replaced Nano Banana 2, measured 2026-10-08), gflow-surfaces.md §7. Caps marked
 * `refCapConfirmed: false` are our safe assumptions.
 */
import type { VideoResolution } from './aspects.js';

export type ImageModelName = 'nano2' | 'nano2-lite' | 'nano-pro' | 'image4';
export type VideoModelName =
  'omni_flash' | 'omni_1_2_flash' | 'veo_3_1_lite' | 'veo_3_1_fast' | 'veo_3_1_quality' | 'veo_3_1_lite_lower_priority';

/** One entry of Flow's model menu: the product name it contains, and words that make an entry a twin instead. */
export interface MenuEntry {
  readonly label: string;
  /** An entry carrying one of these words (beyond the label) is not this model: `Lite`, `[Lower Priority]`. */
  readonly exclude: readonly string[];
}

/** An image menu entry, and the token the page puts in the `ogiZ0b` body when it is picked. */
export interface ImageMenuEntry extends MenuEntry {
  readonly token: string;
}

/** The family `readVideoKey` reads out of a video model key. */
export type VideoKeyFamily = 'omni_flash' | 'veo_lite' | 'veo_fast' | 'veo_quality';

/** One image model of Flow: its gflow name, Flow's menu label, the aliases gflow accepts, its reference cap and whether it is the default. */
export interface ImageModel {
  readonly name: ImageModelName;
  /** The first menu entry's product name (what `gflow models` shows). */
  readonly label: string;
  /** The first menu entry's token. */
  readonly wireToken: string;
  readonly aliases: readonly string[];
  /**
   * The menu entries that are this model, in order of preference. The driver picks the first one
   * the menu offers and then expects that entry's token in the submit body.
   */
  readonly menu: readonly [ImageMenuEntry, ...ImageMenuEntry[]];
  readonly refCap: number;
  readonly refCapConfirmed: boolean;
  readonly default: boolean;
  /** Offered in flow.google.com's model menu (Imagen 4 is labs-only). */
  readonly onFlowHost: boolean;
}

/** One video model of Flow: its gflow name, Flow's menu label, the aliases gflow accepts, its durations, resolutions and reference cap. */
export interface VideoModel {
  readonly name: VideoModelName;
  /** The menu entry's product name. */
  readonly label: string;
  readonly aliases: readonly string[];
  /** The menu entries that are this model, in order of preference (one today). */
  readonly menu: readonly [MenuEntry, ...MenuEntry[]];
  /** r2v reference cap (0: the model takes no references). */
  readonly refCap: number;
  readonly durations: readonly number[];
  readonly maxDuration: number;
  /** Longest clip that keeps an end frame (above it Flow drops the end frame). */
  readonly maxDurationWithEndFrame: number;
  /** Resolutions the settings pane offers for it ([] = no resolution control). */
  readonly resolutions: readonly VideoResolution[];
  readonly family: 'omni' | 'veo';
  /**
   * The key family its submit keys carry (`abra_…` = omni_flash, `veo_3_1_…lite|fast|…`); null when
   * no key of the model was ever captured [U]: then only the mode infix and "no other known
   * family" are checked.
   */
  readonly keyFamily: VideoKeyFamily | null;
  /** Its keys carry `low(er)_priority` (the Lower Priority tier of Veo 3.1 - Lite). */
  readonly lowerPriority: boolean;
}

type ImageRow = Omit<ImageModel, 'label' | 'wireToken'>;
type VideoRow = Omit<VideoModel, 'label'>;

const imageRow = (row: ImageRow): ImageModel => ({ ...row, label: row.menu[0].label, wireToken: row.menu[0].token });
const videoRow = (row: VideoRow): VideoModel => ({ ...row, label: row.menu[0].label });

const NOT_LITE = ['Lite'];
const NOT_LOWER_PRIORITY = ['[Lower Priority]'];

/** The image models gflow can pick in Flow's composer (the `model` input of `generateImage`; `listModels` shows them). */
export const IMAGE_MODELS: readonly ImageModel[] = [
  imageRow({
    name: 'nano2',
    aliases: ['nano2', 'nano2.1', 'narwhal', 'beluga', 'nano-banana-2', 'nano_banana_2', 'nanobanana2'],
    // Nano Banana 2.1 replaced Nano Banana 2 (flow-captures §7); an account still on the old menu gets 2.
    menu: [
      { label: 'Nano Banana 2.1', exclude: NOT_LITE, token: 'BELUGA' },
      { label: 'Nano Banana 2', exclude: NOT_LITE, token: 'NARWHAL' },
    ],
    refCap: 8,
    refCapConfirmed: false,
    default: true,
    onFlowHost: true,
  }),
  imageRow({
    name: 'nano2-lite',
    aliases: ['nano2-lite', 'nano2_lite', 'harbor_seal', 'nano-banana-2-lite'],
    menu: [{ label: 'Nano Banana 2 Lite', exclude: [], token: 'HARBOR_SEAL' }],
    refCap: 3,
    refCapConfirmed: false,
    default: false,
    onFlowHost: true,
  }),
  imageRow({
    name: 'nano-pro',
    aliases: ['nano-pro', 'nano_pro', 'nanopro', 'gem_pix_2', 'gem-pix-2'],
    menu: [{ label: 'Nano Banana Pro', exclude: [], token: 'GEM_PIX_2' }],
    refCap: 8,
    refCapConfirmed: false,
    default: false,
    onFlowHost: true,
  }),
  imageRow({
    name: 'image4',
    aliases: ['image4', 'imagen4', 'imagen_3_5', 'imagen-3-5'],
    menu: [{ label: 'Imagen 4', exclude: [], token: 'IMAGEN_3_5' }],
    refCap: 0,
    refCapConfirmed: false,
    default: false,
    onFlowHost: false,
  }),
];

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const VEO_DURATIONS = [4, 6, 8];

/** The video models gflow can pick in Flow's composer (the `model` input of `generateVideo`; `listModels` shows them). */
export const VIDEO_MODELS: readonly VideoModel[] = [
  videoRow({
    name: 'omni_flash',
    aliases: ['omni_flash', 'omni', 'flash', 'omni_1_1_flash'],
    menu: [{ label: 'Omni 1.1 Flash', exclude: [] }],
    refCap: 7,
    durations: [4, 6, 8, 10],
    maxDuration: 10,
    maxDurationWithEndFrame: 10,
    resolutions: ['360p', '720p'],
    family: 'omni',
    keyFamily: 'omni_flash',
    lowerPriority: false,
  }),
  videoRow({
    name: 'omni_1_2_flash',
    aliases: ['omni_1_2_flash', 'omni_1.2_flash', 'omni_1_2'],
    menu: [{ label: 'Omni 1.2 Flash', exclude: [] }],
    refCap: 7,
    durations: range(3, 15),
    maxDuration: 15,
    maxDurationWithEndFrame: 10,
    resolutions: ['360p', '720p'],
    family: 'omni',
    keyFamily: null,
    lowerPriority: false,
  }),
  videoRow({
    name: 'veo_3_1_lite',
    aliases: ['veo_3_1_lite', 'veo_lite', 'lite'],
    menu: [{ label: 'Veo 3.1 - Lite', exclude: NOT_LOWER_PRIORITY }],
    refCap: 3,
    durations: VEO_DURATIONS,
    maxDuration: 8,
    maxDurationWithEndFrame: 8,
    resolutions: [],
    family: 'veo',
    keyFamily: 'veo_lite',
    lowerPriority: false,
  }),
  videoRow({
    name: 'veo_3_1_fast',
    aliases: ['veo_3_1_fast', 'veo_fast', 'fast'],
    menu: [{ label: 'Veo 3.1 - Fast', exclude: NOT_LOWER_PRIORITY }],
    refCap: 3,
    durations: VEO_DURATIONS,
    maxDuration: 8,
    maxDurationWithEndFrame: 8,
    resolutions: [],
    family: 'veo',
    keyFamily: 'veo_fast',
    lowerPriority: false,
  }),
  videoRow({
    name: 'veo_3_1_quality',
    aliases: ['veo_3_1_quality', 'veo_quality', 'quality'],
    menu: [{ label: 'Veo 3.1 - Quality', exclude: NOT_LOWER_PRIORITY }],
    refCap: 0,
    durations: VEO_DURATIONS,
    maxDuration: 8,
    maxDurationWithEndFrame: 8,
    resolutions: [],
    family: 'veo',
    keyFamily: 'veo_quality',
    lowerPriority: false,
  }),
  videoRow({
    name: 'veo_3_1_lite_lower_priority',
    aliases: ['veo_3_1_lite_lower_priority', 'veo_lite_lp', 'lite_lp', 'lower_priority'],
    menu: [{ label: 'Veo 3.1 - Lite [Lower Priority]', exclude: [] }],
    refCap: 3,
    durations: VEO_DURATIONS,
    maxDuration: 8,
    maxDurationWithEndFrame: 8,
    resolutions: [],
    family: 'veo',
    keyFamily: 'veo_lite',
    lowerPriority: true,
  }),
];

/** Alias rule: case, surrounding space and the separators `-`, `.` and spaces do not count (`Nano2.1` = `nano2_1`). */
export function normaliseAlias(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[-\s.]+/g, '_');
}

const spells = (model: { readonly name: string; readonly aliases: readonly string[] }, key: string): boolean =>
  normaliseAlias(model.name) === key || model.aliases.some((alias) => normaliseAlias(alias) === key);

/** The image model a name or alias means, if any. */
export function findImageModel(value: string): ImageModel | undefined {
  const key = normaliseAlias(value);
  return IMAGE_MODELS.find((m) => spells(m, key));
}

/** The video model a name or alias means, if any. */
export function findVideoModel(value: string): VideoModel | undefined {
  const key = normaliseAlias(value);
  return VIDEO_MODELS.find((m) => spells(m, key));
}

const spellings = (models: ReadonlyArray<{ readonly name: string; readonly aliases: readonly string[] }>): string[] =>
  models.flatMap((m) => [m.name, ...m.aliases]).filter((v, i, all) => all.indexOf(v) === i);

/** Every spelling an image `--model` / `model` accepts, for messages and completion. */
export function imageModelSpellings(): string[] {
  return spellings(IMAGE_MODELS);
}

/** Every spelling a video `--model` / `model` accepts. */
export function videoModelSpellings(): string[] {
  return spellings(VIDEO_MODELS);
}
