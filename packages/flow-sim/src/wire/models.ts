/**
 * The model menu and the model keys the page puts in submit bodies (flow-wire §3a, §4).
 * Key templates: `{d}` is '' for 8 s and `_<n>s` otherwise; `{dur}` is always `<n>s`.
 * The page builds the key from these templates; the server parses keys back with `describeKey`.
 */
export interface VideoModel {
  id: string;
  label: string;
  durations: number[];
  /** The duration is a slider (every integer of `durations`), not radios [U]. */
  slider?: boolean;
  /** Credits for 8 s ×1 at 720p. */
  cost: number;
  refCap: number;
  keys: { t2v: string; t2v8?: string; i2v: string | null; r2v: string | null; interp: string | null };
}

export interface ImageModel {
  id: string;
  label: string;
  token: string;
  cost: number;
  refCap: number;
}

export const VIDEO_MODELS: readonly VideoModel[] = [
  // Omni takes start and start+end frames on flow.google.com (seed 000, wire-verified 2026-09-02, #626);
  // its i2v and interpolation keys were never captured: `abra_i2v_<n>s` / `abra_interpolation_<n>s`
  // follow the captured t2v/r2v keys' shape [U] (README: "Omni frame keys").
  {
    id: 'omni_flash',
    label: 'Omni 1.1 Flash',
    durations: [4, 6, 8, 10],
    cost: 12,
    refCap: 7,
    keys: { t2v: 'abra_t2v_{dur}', i2v: 'abra_i2v_{dur}', r2v: 'abra_r2v_{dur}', interp: 'abra_interpolation_{dur}' },
  },
  // Omni 1.2 Flash: every integer 3–15 s through a duration slider, 10 at most without a Google AI
  // plan (seed 000). Its keys and cost were never captured [U]: `{omni12}` is the omni12Key variant.
  {
    id: 'omni_1_2',
    label: 'Omni 1.2 Flash',
    durations: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    slider: true,
    cost: 14,
    refCap: 7,
    keys: {
      t2v: '{omni12}_t2v_{dur}',
      i2v: '{omni12}_i2v_{dur}',
      r2v: '{omni12}_r2v_{dur}',
      interp: '{omni12}_interpolation_{dur}',
    },
  },
  {
    id: 'veo_lite',
    label: 'Veo 3.1 - Lite',
    durations: [4, 6, 8],
    cost: 10,
    refCap: 3,
    keys: {
      t2v: 'veo_3_1_t2v_lite{d}',
      i2v: 'veo_3_1_i2v_lite{d}',
      r2v: 'veo_3_1_r2v_lite',
      interp: 'veo_3_1_interpolation_lite',
    },
  },
  {
    id: 'veo_fast',
    label: 'Veo 3.1 - Fast',
    durations: [4, 6, 8],
    cost: 20,
    refCap: 3,
    keys: {
      t2v: 'veo_3_1_t2v_fast{d}',
      i2v: 'veo_3_1_i2v_fast{d}',
      r2v: 'veo_3_1_r2v_fast',
      interp: 'veo_3_1_interpolation_fast',
    },
  },
  {
    id: 'veo_quality',
    label: 'Veo 3.1 - Quality',
    durations: [4, 6, 8],
    cost: 100,
    refCap: 0,
    keys: { t2v: 'veo_3_1_t2v{d}', i2v: 'veo_3_1_i2v{d}', r2v: null, interp: 'veo_3_1_interpolation' },
  },
  {
    id: 'veo_lite_lp',
    label: 'Veo 3.1 - Lite [Lower Priority]',
    durations: [4, 6, 8],
    cost: 5,
    refCap: 3,
    keys: {
      t2v: 'veo_3_1_t2v_lite{d}_low_priority',
      t2v8: 'veo_3_1_lite_lower_priority',
      i2v: 'veo_3_1_i2v_lite{d}_low_priority',
      r2v: 'veo_3_1_r2v_lite_low_priority',
      interp: 'veo_3_1_interpolation_lite_low_priority',
    },
  },
];

export const IMAGE_MODELS: readonly ImageModel[] = [
  { id: 'nb2', label: 'Nano Banana 2', token: 'NARWHAL', cost: 0, refCap: 10 },
  { id: 'nb21', label: 'Nano Banana 2.1', token: 'BELUGA', cost: 0, refCap: 10 },
  { id: 'nb2lite', label: 'Nano Banana 2 Lite', token: 'HARBOR_SEAL', cost: 0, refCap: 3 },
  { id: 'nbpro', label: 'Nano Banana Pro', token: 'GEM_PIX_2', cost: 5, refCap: 14 },
];

/** Image aspect choices: ligature, ratio, the index the page sends, and the pixel size served. */
export const IMAGE_ASPECTS = [
  { icon: 'crop_16_9', ratio: '16:9', index: 2, width: 1376, height: 768 },
  { icon: 'crop_landscape', ratio: '4:3', index: 4, width: 1184, height: 888 },
  { icon: 'crop_square', ratio: '1:1', index: 3, width: 1024, height: 1024 },
  { icon: 'crop_portrait', ratio: '3:4', index: 5, width: 888, height: 1184 },
  { icon: 'crop_9_16', ratio: '9:16', index: 1, width: 768, height: 1376 },
] as const;

export const VIDEO_ASPECTS = [
  { icon: 'crop_16_9', ratio: '16:9', index: 2 },
  { icon: 'crop_9_16', ratio: '9:16', index: 1 },
] as const;

export type VideoMode = 't2v' | 'i2v' | 'r2v' | 'interp';

export interface KeyInfo {
  model: VideoModel;
  mode: VideoMode;
  seconds: number;
}

/** Parses a video model key back into model, mode and duration (either Omni 1.2 prefix); null if unknown. */
export function describeKey(key: string): KeyInfo | null {
  for (const model of VIDEO_MODELS) {
    for (const mode of ['t2v', 'i2v', 'r2v', 'interp'] as const) {
      const template = model.keys[mode];
      if (template === null) continue;
      for (const seconds of [8, ...model.durations.filter((d) => d !== 8)]) {
        for (const prefix of OMNI12_PREFIXES)
          if (expandKey(model, mode, seconds, prefix) === key) return { model, mode, seconds };
      }
      if (mode === 't2v' && model.keys.t2v8 === key) return { model, mode, seconds: 8 };
    }
  }
  return null;
}

const OMNI12_PREFIXES = ['omni_1_2_flash', 'abra_1_2'] as const;

export function expandKey(
  model: VideoModel,
  mode: VideoMode,
  seconds: number,
  omni12: string = OMNI12_PREFIXES[0],
): string | null {
  if (mode === 't2v' && seconds === 8 && model.keys.t2v8 !== undefined) return model.keys.t2v8;
  const template = model.keys[mode];
  if (template === null) return null;
  return template
    .replace('{d}', seconds === 8 ? '' : `_${seconds}s`)
    .replace('{dur}', `${seconds}s`)
    .replace('{omni12}', omni12);
}

export function videoCost(model: VideoModel, seconds: number, count: number, resolution: string): number {
  const base = Math.ceil((model.cost * seconds) / 8);
  return (resolution === '360p' ? Math.ceil(base / 2) : base) * count;
}

export function imageModelByToken(token: string): ImageModel | undefined {
  return IMAGE_MODELS.find((m) => m.token === token);
}
