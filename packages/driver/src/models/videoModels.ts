/**
 * Video models on flow.google.com (flow-wire §3a "Model keys", §4 "Model picker").
 * Keys seen: `abra_t2v_8s`, `abra_r2v_8s` (Omni 1.1 Flash: model and duration in one key),
 * `veo_3_1_i2v_lite`, `veo_3_1_r2v_lite_low_priority`, `veo_3_1_lite_lower_priority`,
 * `veo_3_1_t2v_lite_4s_low_priority`, `veo_3_1_interpolation_lite`. The 8 s Veo base tier has no
 * duration segment; a plain t2v key may have no mode infix.
 */
export type VideoModelName = 'veo_lite' | 'veo_lite_lower_priority' | 'veo_fast' | 'veo_quality' | 'omni_flash' | 'omni_1_2_flash';
export type VideoMode = 't2v' | 'i2v' | 'r2v';

export interface VideoModelInfo {
  readonly name: VideoModelName;
  /** Product name the menu entry contains. */
  readonly label: string;
  readonly exclude: readonly string[];
  readonly durations: readonly number[];
  /** Whether the key family of this model is known; false means only infixes are checked [U]. */
  readonly keyKnown: boolean;
  readonly refCap: number;
  readonly resolutions: boolean;
}

export const VIDEO_MODELS: readonly VideoModelInfo[] = [
  { name: 'veo_lite', label: 'Veo 3.1 - Lite', exclude: ['[Lower Priority]'], durations: [4, 6, 8], keyKnown: true, refCap: 3, resolutions: false },
  { name: 'veo_lite_lower_priority', label: 'Veo 3.1 - Lite [Lower Priority]', exclude: [], durations: [4, 6, 8], keyKnown: true, refCap: 3, resolutions: false },
  { name: 'veo_fast', label: 'Veo 3.1 - Fast', exclude: ['[Lower Priority]'], durations: [4, 6, 8], keyKnown: true, refCap: 3, resolutions: false },
  { name: 'veo_quality', label: 'Veo 3.1 - Quality', exclude: ['[Lower Priority]'], durations: [4, 6, 8], keyKnown: true, refCap: 0, resolutions: false },
  { name: 'omni_flash', label: 'Omni 1.1 Flash', exclude: [], durations: [4, 6, 8, 10], keyKnown: true, refCap: 7, resolutions: true },
  { name: 'omni_1_2_flash', label: 'Omni 1.2 Flash', exclude: [], durations: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], keyKnown: false, refCap: 7, resolutions: true },
];

export function videoModel(name: string): VideoModelInfo | undefined {
  return VIDEO_MODELS.find((m) => m.name === name);
}

export const VIDEO_ASPECT_ICONS = { '16:9': 'crop_16_9', '9:16': 'crop_9_16' } as const;
export type VideoAspect = keyof typeof VIDEO_ASPECT_ICONS;
/** Aspect index in video bodies and records: 2 = 16:9, 1 = 9:16. */
export const VIDEO_ASPECT_INDEX: Readonly<Record<VideoAspect, number>> = { '16:9': 2, '9:16': 1 };

/** What a video model key says, read by pattern. */
export interface KeyReading {
  readonly family: 'omni_flash' | 'veo_lite' | 'veo_fast' | 'veo_quality' | 'unknown';
  readonly lowerPriority: boolean;
  readonly mode: 't2v' | 'i2v' | 'r2v' | 'interpolation';
  /** Seconds from a `_<n>s` segment; null when the key has none. */
  readonly seconds: number | null;
}

export function readVideoKey(key: string): KeyReading {
  const k = key.toLowerCase();
  const family = k.startsWith('abra_')
    ? 'omni_flash'
    : k.startsWith('veo_')
      ? k.includes('lite')
        ? 'veo_lite'
        : k.includes('fast')
          ? 'veo_fast'
          : 'veo_quality'
      : 'unknown';
  const mode = k.includes('interpolation') ? 'interpolation' : k.includes('_i2v') ? 'i2v' : k.includes('_r2v') ? 'r2v' : 't2v';
  const dur = /_(\d{1,2})s(?:_|$)/.exec(k);
  return { family, lowerPriority: /low(er)?_priority/.test(k), mode, seconds: dur?.[1] === undefined ? null : Number(dur[1]) };
}

/** Whether a string looks like a video model key (not free text). */
export function looksLikeVideoKey(value: string): boolean {
  return /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(value) && /(?:^veo_|^abra_|_t2v|_i2v|_r2v|interpolation)/.test(value);
}
