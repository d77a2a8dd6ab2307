// The generation module: plan once, resolve inputs once, store the resolved request as the task
// row, run one GenerationRun through short phases, save media through one path. What other
// folders of core may use of it; its files are its own (the layering lint holds that).
export {
  type GenerateImageInput,
  type GenerateVideoInput,
  type GenerationResult,
  generateImageInput,
  generateVideoInput,
  generationResult,
} from './schemas.js';
export {
  type GenerationPlan,
  type ImagePlan,
  type MediaRef,
  type VideoPlan,
  MEDIA_UUID,
  planImage,
  planVideo,
} from './plan.js';
export { type ResolvedInput, readLocalImage, resolveInputs } from './inputs.js';
export { MAX_DATA_URL_CHARS, inlineImagesDir, localImageOf } from './dataUrlImages.js';
export { type OutputTarget, outputTargetFor } from './outputTarget.js';
export { type GenerationAsk, type RowPlacement, queueGeneration, submitGeneration } from './submit.js';
export { type RunOptions, runClaimedGeneration } from './run.js';
export { type SaveTarget, type SavedMedia, saveMedia } from './saveMedia.js';
export { HEARTBEAT_MS } from './clock.js';
export { budgetRefusal, budgetVerdict, creditBudgetOf, localDay } from './spend.js';
export { type RecoverOptions, recoverGeneration } from './recover.js';
export { claimAndRunGeneration } from './run.js';
export { RunClock } from './clock.js';
export type { GenerationRequest } from './request.js';
export { isGenerationPayload } from './request.js';
