import { ConfigurationError } from '@gflow/errors';
import {
  type ImageModel,
  type VideoModel,
  judgeImageRequest,
  judgeVideoRequest,
  requireNoViolation,
} from '@gflow/flow-facts';
import type { GenerateImageRequest, GenerateVideoRequest, ReferenceInput } from './types.js';

/**
 * The driver's last line before the browser: the request it was handed, judged by the same rule
 * engine core plans with (@gflow/flow-facts), so a broken rule is refused with the same words and
 * the same code on every path. Nothing has been opened or sent when it throws.
 */

const characterFacts = (req: { readonly characters?: GenerateImageRequest['characters'] }) =>
  (req.characters ?? []).map((c) => ({ entityId: c.entityId, name: c.displayName }));

/**
 * A frame as the rules see it. Whatever core hands over (a file to upload, or an asset of the
 * project attached in place with its file as the fallback) is bound from a local file.
 */
const frameFact = (ref: ReferenceInput | undefined): 'path' | undefined => (ref === undefined ? undefined : 'path');

/** An image request's rules; the model it runs on. */
export function checkImageRequest(req: GenerateImageRequest): ImageModel {
  const { model } = requireNoViolation(
    judgeImageRequest({
      prompt: req.prompt,
      model: req.model,
      aspect: req.aspect,
      count: req.count,
      references: req.references?.length ?? 0,
      characters: characterFacts(req),
    }),
  );
  return model as ImageModel;
}

/** What a video request sets: the model to pick (undefined keeps the editor's) and the duration (undefined leaves it). */
export interface VideoSettings {
  readonly model: VideoModel | undefined;
  readonly duration: number | undefined;
}

/** A video request's rules: i2v without a model runs on Veo 3.1 - Lite, r2v on Veo is pinned to 8 s. */
export function checkVideoRequest(req: GenerateVideoRequest): VideoSettings {
  if (!(req.timeoutMs > 0)) throw new ConfigurationError('timeoutMs must be positive.');
  const { model, duration } = requireNoViolation(
    judgeVideoRequest({
      prompt: req.prompt,
      mode: req.mode,
      model: req.model,
      aspect: req.aspect,
      count: req.count,
      duration: req.duration,
      resolution: req.resolution,
      startFrame: frameFact(req.startFrame),
      endFrame: frameFact(req.endFrame),
      references: req.references?.length ?? 0,
      characters: characterFacts(req),
    }),
  );
  return { model, duration };
}
