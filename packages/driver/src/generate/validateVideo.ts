import { ConfigurationError, ModelModeIncompatibilityError } from '@gflow/errors';
import {
  DEFAULT_I2V_VIDEO_MODEL,
  R2V_VEO_SECONDS,
  VIDEO_ASPECT_ICONS,
  type VideoModelName,
  findVideoModel,
  maxDurationWithEndFrame,
  r2vPinsDuration,
} from '@gflow/flow-facts';
import { validateCharacters } from './prepare.js';
import type { GenerateVideoRequest } from './types.js';

export interface VideoRequestPlan {
  /** The model to pick; null keeps whatever the editor has (t2v without a model). */
  readonly model: VideoModelName | null;
  /** The duration to set; null leaves the control alone. */
  readonly duration: number | null;
}

/**
 * Pre-submit rules (seed, gflow_generate_video): i2v needs a start frame, an end frame only with
 * i2v, r2v needs references or saved characters (r2v only); r2v on Veo (or no model) is pinned to 8 s because shorter Veo r2v
 * degrades to a billed t2v; i2v without a model uses Veo 3.1 Lite; resolution only on Omni
 * models; at most 10 s with an end frame; reference caps per model.
 */
export function validateVideoRequest(req: GenerateVideoRequest): VideoRequestPlan {
  if (req.prompt.trim() === '') throw new ConfigurationError('The prompt is empty.');
  if (!(req.aspect in VIDEO_ASPECT_ICONS))
    throw new ConfigurationError(`Video aspect must be 16:9 or 9:16, not ${req.aspect}.`);
  if (!Number.isInteger(req.count) || req.count < 1 || req.count > 4)
    throw new ConfigurationError('Video count must be 1–4.');
  if (!(req.timeoutMs > 0)) throw new ConfigurationError('timeoutMs must be positive.');
  const refs = req.references ?? [];
  const characters = req.characters ?? [];
  validateCharacters(characters);
  if (req.mode === 'i2v' && req.startFrame === undefined) throw new ConfigurationError('i2v needs a start frame.');
  if (req.mode !== 'i2v' && (req.startFrame !== undefined || req.endFrame !== undefined))
    throw new ConfigurationError(`Start/end frames belong to i2v, not ${req.mode}.`);
  if (req.mode === 'r2v' && refs.length + characters.length === 0)
    throw new ConfigurationError('r2v needs at least one reference or saved character.');
  if (req.mode !== 'r2v' && refs.length > 0) throw new ConfigurationError(`References belong to r2v, not ${req.mode}.`);
  if (req.mode !== 'r2v' && characters.length > 0)
    throw new ConfigurationError(`Saved characters belong to r2v, not ${req.mode}.`);
  const model = req.model ?? (req.mode === 'i2v' ? DEFAULT_I2V_VIDEO_MODEL : null);
  const info = model === null ? undefined : findVideoModel(model);
  if (model !== null && info === undefined) throw new ConfigurationError(`Unknown video model ${model}.`);
  let duration = req.duration ?? null;
  if (req.mode === 'r2v') {
    const veo = r2vPinsDuration(info);
    if (veo && duration !== null && duration !== R2V_VEO_SECONDS) {
      throw new ConfigurationError(
        `r2v on Veo (or with no model) accepts only 8 s: shorter Veo requests dropped the references and billed text-to-video. Nothing was submitted.`,
      );
    }
    if (duration === null) duration = R2V_VEO_SECONDS;
  }
  if (info !== undefined && duration !== null && !info.durations.includes(duration)) {
    throw new ConfigurationError(`${info.label} offers ${info.durations.join('/')} s, not ${duration} s.`);
  }
  if (req.endFrame !== undefined && duration !== null && duration > maxDurationWithEndFrame(info))
    throw new ConfigurationError(`With an end frame the duration is at most ${maxDurationWithEndFrame(info)} s.`);
  if (req.resolution !== undefined && info !== undefined && info.resolutions.length === 0) {
    throw new ConfigurationError(`Resolution is offered on the Omni models only, not ${info.label}.`);
  }
  // A saved character is one more @ mention in the same reference list, so it counts toward the cap.
  if (info !== undefined && req.mode === 'r2v' && refs.length + characters.length > info.refCap) {
    if (info.refCap === 0) throw new ModelModeIncompatibilityError(`${info.label} takes no references.`);
    throw new ConfigurationError(`${info.label} takes at most ${info.refCap} references (saved characters included).`);
  }
  return { model: info?.name ?? null, duration };
}
