/**
 * Generation rules that hold before anything is sent (seed gflow_generate_video), as data and
 * small predicates over the model table, so core's validation and the driver's pre-submit checks
 * cannot drift apart.
 */
import type { VideoModel, VideoModelName } from './models.js';

/** Durations accepted when no model is named (Flow's default model decides). */
export const DEFAULT_VIDEO_DURATIONS: readonly number[] = [4, 6, 8, 10];

/** i2v without a model runs on Veo 3.1 - Lite (issue #125). */
export const DEFAULT_I2V_VIDEO_MODEL: VideoModelName = 'veo_3_1_lite';

/** r2v on Veo, or with no model, is pinned to this: shorter Veo r2v requests dropped the references and billed text-to-video (measured). */
export const R2V_VEO_SECONDS = 8;

/** r2v reference cap when no model is named (saved characters included). */
export const DEFAULT_R2V_REF_CAP = 3;

/** Longest clip that keeps an end frame when no model is named. */
export const DEFAULT_MAX_DURATION_WITH_END_FRAME = 10;

/** Whether r2v on this model (undefined: no model named) is pinned to R2V_VEO_SECONDS. */
export function r2vPinsDuration(model: VideoModel | undefined): boolean {
  return model === undefined || model.family === 'veo';
}

/** The durations a model (undefined: none named) accepts. */
export function videoDurationsOf(model: VideoModel | undefined): readonly number[] {
  return model === undefined ? DEFAULT_VIDEO_DURATIONS : model.durations;
}

/** The longest clip that keeps an end frame on a model (undefined: none named). */
export function maxDurationWithEndFrame(model: VideoModel | undefined): number {
  return model === undefined ? DEFAULT_MAX_DURATION_WITH_END_FRAME : model.maxDurationWithEndFrame;
}

/** The r2v reference cap of a model (undefined: none named), saved characters included. */
export function videoRefCap(model: VideoModel | undefined): number {
  return model === undefined ? DEFAULT_R2V_REF_CAP : model.refCap;
}
