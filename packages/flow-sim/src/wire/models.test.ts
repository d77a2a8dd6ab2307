import { describe, expect, it } from 'vitest';
import { describeKey, expandKey, VIDEO_MODELS, videoCost } from './models.js';

const model = (id: string) => {
  const m = VIDEO_MODELS.find((v) => v.id === id);
  if (m === undefined) throw new Error(id);
  return m;
};

describe('model keys', () => {
  it('expands the keys seen in flow-wire', () => {
    expect(expandKey(model('omni_flash'), 't2v', 8)).toBe('abra_t2v_8s');
    expect(expandKey(model('omni_flash'), 'r2v', 8)).toBe('abra_r2v_8s');
    expect(expandKey(model('omni_flash'), 'i2v', 8)).toBe('abra_i2v_8s');
    expect(expandKey(model('omni_flash'), 'interp', 10)).toBe('abra_interpolation_10s');
    expect(expandKey(model('veo_lite'), 'i2v', 8)).toBe('veo_3_1_i2v_lite');
    expect(expandKey(model('veo_lite'), 'interp', 8)).toBe('veo_3_1_interpolation_lite');
    expect(expandKey(model('veo_lite_lp'), 't2v', 8)).toBe('veo_3_1_lite_lower_priority');
    expect(expandKey(model('veo_lite_lp'), 't2v', 4)).toBe('veo_3_1_t2v_lite_4s_low_priority');
    expect(expandKey(model('veo_lite_lp'), 'r2v', 8)).toBe('veo_3_1_r2v_lite_low_priority');
  });

  it('parses keys back to model, mode and duration', () => {
    expect(describeKey('veo_3_1_t2v_lite_4s')).toMatchObject({ mode: 't2v', seconds: 4 });
    expect(describeKey('veo_3_1_r2v_lite')).toMatchObject({ mode: 'r2v', seconds: 8 });
    expect(describeKey('abra_t2v_10s')).toMatchObject({ mode: 't2v', seconds: 10 });
    expect(describeKey('nonsense')).toBeNull();
  });

  it('costs 12 for Omni Flash 8 s x1 and 10 for Veo Lite, as the cost line says', () => {
    expect(videoCost(model('omni_flash'), 8, 1, '720p')).toBe(12);
    expect(videoCost(model('veo_lite'), 8, 1, '720p')).toBe(10);
    expect(videoCost(model('veo_lite'), 8, 2, '720p')).toBe(20);
  });
});
