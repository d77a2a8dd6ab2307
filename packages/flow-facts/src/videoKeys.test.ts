import { describe, expect, it } from 'vitest';
import { clipSecondsOfKey, looksLikeVideoKey, readVideoKey, videoModelOfKey } from './videoKeys.js';

describe('readVideoKey', () => {
  it.each([
    ['abra_t2v_8s', { family: 'omni_flash', mode: 't2v', seconds: 8, lowerPriority: false }],
    ['abra_r2v_8s', { family: 'omni_flash', mode: 'r2v', seconds: 8, lowerPriority: false }],
    ['abra_1_2_t2v_11s', { family: 'unknown', mode: 't2v', seconds: 11, lowerPriority: false }],
    ['omni_1_2_flash_t2v_11s', { family: 'unknown', mode: 't2v', seconds: 11, lowerPriority: false }],
    ['veo_3_1_i2v_lite', { family: 'veo_lite', mode: 'i2v', seconds: null, lowerPriority: false }],
    ['veo_3_1_r2v_lite_low_priority', { family: 'veo_lite', mode: 'r2v', seconds: null, lowerPriority: true }],
    ['veo_3_1_lite_lower_priority', { family: 'veo_lite', mode: 't2v', seconds: null, lowerPriority: true }],
    ['veo_3_1_t2v_lite_4s_low_priority', { family: 'veo_lite', mode: 't2v', seconds: 4, lowerPriority: true }],
    ['veo_3_1_interpolation_lite', { family: 'veo_lite', mode: 'interpolation', seconds: null, lowerPriority: false }],
    ['veo_3_1_t2v_fast_6s', { family: 'veo_fast', mode: 't2v', seconds: 6, lowerPriority: false }],
    ['veo_3_1_t2v', { family: 'veo_quality', mode: 't2v', seconds: null, lowerPriority: false }],
  ])('%s', (key, want) => {
    expect(readVideoKey(key)).toEqual(want);
  });

  it('tells keys from prompts', () => {
    expect(looksLikeVideoKey('veo_3_1_t2v_lite')).toBe(true);
    expect(looksLikeVideoKey('a fox veo_3_1')).toBe(false);
    expect(looksLikeVideoKey('GEM_PIX_2')).toBe(false);
    expect(looksLikeVideoKey('generic')).toBe(false);
  });
});

describe('videoModelOfKey: the model a submit key says ran', () => {
  it.each([
    ['abra_t2v_8s', 'omni_flash'],
    ['veo_3_1_i2v_lite', 'veo_3_1_lite'],
    ['veo_3_1_r2v_lite_low_priority', 'veo_3_1_lite_lower_priority'],
    ['veo_3_1_t2v_fast', 'veo_3_1_fast'],
    ['veo_3_1_t2v', 'veo_3_1_quality'],
  ])('%s → %s', (key, model) => {
    expect(videoModelOfKey(key)?.name).toBe(model);
  });

  it('a key no model reads as names none (Omni 1.2, never captured)', () => {
    expect(videoModelOfKey('abra_1_2_t2v_11s')).toBeUndefined();
  });
});

describe('clipSecondsOfKey (flow-wire §3a: the 8 s Veo base tier has no duration segment)', () => {
  it('reads the segment, else 8 for a Veo key, else nothing', () => {
    expect(clipSecondsOfKey('veo_3_1_t2v_lite_4s_low_priority')).toBe(4);
    expect(clipSecondsOfKey('abra_t2v_8s')).toBe(8);
    expect(clipSecondsOfKey('veo_3_1_i2v_lite')).toBe(8);
    expect(clipSecondsOfKey('veo_3_1_lite_lower_priority')).toBe(8);
    expect(clipSecondsOfKey('veo_3_1_interpolation_lite')).toBeNull();
    expect(clipSecondsOfKey('abra_t2v')).toBeNull();
    expect(clipSecondsOfKey('mystery_key')).toBeNull();
  });
});
