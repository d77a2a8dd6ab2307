// @gflow/driver — the Flow browser driver. Curated public API (named exports only).

// Sessions
export { openFlowSession, type OpenFlowSessionOptions } from './session/openFlowSession.js';
export { FlowSession, type SessionTimeouts, type DownloadRequest } from './session/flowSession.js';
export { buildLaunchOptions, type LaunchSettings, type PersistentLaunchOptions } from './session/launchOptions.js';
export type { GenerationPhase, ProgressEvent } from './session/opContext.js';
export type { DriverLogger } from './util/logger.js';

// Generation
export type { GenerateImageRequest, GenerateVideoRequest, GenerationResult, GeneratedItem, ReferenceInput } from './generate/types.js';
export { validateVideoRequest, type VideoPlan } from './generate/validateVideo.js';
export { validateImageRequest } from './generate/generateImage.js';
export { runUniqueName } from './composer/uploads.js';

// Hosts and landings
export { flowHostKind, flowLandingKind, projectUrl, projectIdOfUrl, FLOW_ORIGIN, type FlowHostKind, type FlowLanding, type FlowHostSetting } from './flow/hosts.js';
export { landingError } from './flow/landingError.js';
export { assertStillOnFlow } from './flow/assertStillOnFlow.js';

// Models
export { IMAGE_MODELS, IMAGE_ASPECT_ICONS, imageModel, type ImageModelInfo, type ImageModelName, type ImageAspect } from './models/imageModels.js';
export { VIDEO_MODELS, VIDEO_ASPECT_ICONS, VIDEO_ASPECT_INDEX, videoModel, readVideoKey, type VideoModelInfo, type VideoModelName, type VideoMode, type VideoAspect, type KeyReading } from './models/videoModels.js';
export { pickMenuEntry, labelMatches, type MenuPick } from './models/matchLabel.js';

// Wire (pure)
export { parseBatchexecute, type ParsedEnvelope, type WireItem } from './wire/batchexecute.js';
export { decodeFormBody, rpcIdsOfRequest, type DecodedCall, type DecodedFormBody } from './wire/formBody.js';
export { readRefusal, refusalToError, type Refusal } from './wire/refusal.js';
export { findVideoRecords, recordsForJob, isTerminal, videoPhase, VIDEO_STATUS, type VideoRecord, type VideoPhase } from './wire/videoRecords.js';
export { findImageRecords, type ImageRecord } from './wire/imageRecords.js';
export { checkImageSubmit, checkVideoSubmit, expectedVideoRpcs, SUBMIT_RPCS, type SubmitVerdict, type ImageExpectation, type VideoExpectation } from './wire/submitCheck.js';

// Download
export { downloadMedia, type DownloadOptions, type DownloadedMedia } from './download/download.js';
export { isAllowedMediaUrl, MEDIA_HOST_ALLOWLIST } from './download/allowlist.js';
export { sniffImage, isMp4, type MediaExtension } from './download/magic.js';
