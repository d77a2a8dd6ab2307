import { describe, expect, it } from 'vitest';
import { findVideoModel } from './models.js';
import {
  DEFAULT_I2V_VIDEO_MODEL,
  maxDurationWithEndFrame,
  r2vPinsDuration,
  videoDurationsOf,
  videoRefCap,
} from './rules.js';

describe('generation rules', () => {
  it('pins r2v on Veo and on no model, not on Omni', () => {
    expect(r2vPinsDuration(undefined)).toBe(true);
    expect(r2vPinsDuration(findVideoModel('veo_fast'))).toBe(true);
    expect(r2vPinsDuration(findVideoModel('omni_flash'))).toBe(false);
  });

  it('falls back to the defaults when no model is named', () => {
    expect(videoDurationsOf(undefined)).toEqual([4, 6, 8, 10]);
    expect(maxDurationWithEndFrame(undefined)).toBe(10);
    expect(videoRefCap(undefined)).toBe(3);
    expect(videoDurationsOf(findVideoModel('omni_1_2_flash'))).toHaveLength(13);
    expect(maxDurationWithEndFrame(findVideoModel('omni_1_2_flash'))).toBe(10);
  });

  it('runs i2v without a model on a model of the table', () => {
    expect(findVideoModel(DEFAULT_I2V_VIDEO_MODEL)?.label).toBe('Veo 3.1 - Lite');
  });
});
