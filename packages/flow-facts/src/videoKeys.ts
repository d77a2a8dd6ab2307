import { VIDEO_MODELS, type VideoKeyFamily, type VideoModel } from './models.js';

/**
 * Video model keys as the page puts them in submit bodies (flow-wire §3a "Model keys"). Seen:
 * `abra_t2v_8s`, `abra_r2v_8s` (Omni 1.1 Flash: model and duration in one key),
 * `veo_3_1_i2v_lite`, `veo_3_1_r2v_lite_low_priority`, `veo_3_1_lite_lower_priority`,
 * `veo_3_1_t2v_lite_4s_low_priority`, `veo_3_1_interpolation_lite`. The 8 s Veo base tier has no
 * duration segment; a plain t2v key may have no mode infix.
 */
export interface KeyReading {
  readonly family: VideoKeyFamily | 'unknown';
  readonly lowerPriority: boolean;
  readonly mode: 't2v' | 'i2v' | 'r2v' | 'interpolation';
  /** Seconds from a `_<n>s` segment; null when the key has none. */
  readonly seconds: number | null;
}

/** What a video model key says, read by pattern. */
export function readVideoKey(key: string): KeyReading {
  const k = key.toLowerCase();
  // Omni 1.2 Flash's keys were never captured [U]: one carrying `1_2` after `abra_` is not 1.1's family.
  const family =
    k.startsWith('abra_') && !/^abra_1_?2(?:_|$)/.test(k)
      ? 'omni_flash'
      : k.startsWith('veo_')
        ? k.includes('lite')
          ? 'veo_lite'
          : k.includes('fast')
            ? 'veo_fast'
            : 'veo_quality'
        : 'unknown';
  const mode = k.includes('interpolation')
    ? 'interpolation'
    : k.includes('_i2v')
      ? 'i2v'
      : k.includes('_r2v')
        ? 'r2v'
        : 't2v';
  const dur = /_(\d{1,2})s(?:_|$)/.exec(k);
  return {
    family,
    lowerPriority: /low(er)?_priority/.test(k),
    mode,
    seconds: dur?.[1] === undefined ? null : Number(dur[1]),
  };
}

/**
 * The length in whole seconds of a clip a key made: its `_<n>s` segment, else 8 for a Veo key (the
 * 8 s base tier has no duration segment, flow-wire §3a); null when the key does not say (Omni
 * keys without a segment, unknown families).
 */
export function clipSecondsOfKey(key: string): number | null {
  const reading = readVideoKey(key);
  if (reading.seconds !== null) return reading.seconds;
  return reading.family.startsWith('veo_') && reading.mode !== 'interpolation' ? 8 : null;
}

/** Whether a string looks like a video model key (not free text). */
export function looksLikeVideoKey(value: string): boolean {
  return /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(value) && /(?:^veo_|^abra_|_t2v|_i2v|_r2v|interpolation)/.test(value);
}

/**
 * The model a submit body's key says ran (undefined: a key no model of the table reads as, e.g.
 * Omni 1.2 Flash's, never captured [U]) — what a result records when no model was named and
 * Flow's composer chose.
 */
export function videoModelOfKey(key: string): VideoModel | undefined {
  const reading = readVideoKey(key);
  if (reading.family === 'unknown') return undefined;
  return VIDEO_MODELS.find((m) => m.keyFamily === reading.family && m.lowerPriority === reading.lowerPriority);
}
