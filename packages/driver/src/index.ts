// @gflow/driver — the Flow browser driver. Curated public API (named exports only).

// Sessions
export { openFlowSession, type OpenFlowSessionOptions } from './session/openFlowSession.js';
export { FlowSession, type SessionTimeouts, type DownloadRequest, type UploadImageRequest, type UploadImageResult } from './session/flowSession.js';
export { buildLaunchOptions, type LaunchSettings, type PersistentLaunchOptions } from './session/launchOptions.js';
export type { GenerationPhase, DriverProgressEvent } from './session/opContext.js';
export type { DriverLogger } from './util/logger.js';

// Generation
export type { CharacterInput, GenerateImageRequest, GenerateVideoRequest, FlowGenerationResult, GeneratedItem, ReferenceInput } from './generate/types.js';
export { validateVideoRequest, type VideoRequestPlan } from './generate/validateVideo.js';
export { validateImageRequest } from './generate/generateImage.js';
export { runUniqueName } from './composer/uploads.js';

// Hosts and landings
export { flowHostKind, flowLandingKind, projectUrl, projectIdOfUrl, FLOW_ORIGIN, type FlowHostKind, type FlowLanding, type FlowHostSetting } from './flow/hosts.js';
export { landingError } from './flow/landingError.js';
export { assertStillOnFlow } from './flow/assertStillOnFlow.js';

// Models, the menu rule, model keys, magic bytes and the profile markers are Flow facts: import
// them from @gflow/flow-facts (the one table the driver picks from and checks against).

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

// ---- Part 2: accounts, projects, characters, briefs, upscale (appended block; owned by part 2) ----
// Login and session probes
export { loginWithBrowser } from './auth/loginWithBrowser.js';
export { LOGIN_URL, type LoginOptions, type LoginResult } from './auth/loginTypes.js';
export { probeSession, type ProbeSessionOptions } from './auth/probeSession.js';
export { probeContext, type ProbeContextOptions } from './auth/probeContext.js';
export { sessionProbeError } from './auth/sessionProbeError.js';
export { renewSession, renewInContext, type RenewResult, type RenewSessionOptions } from './auth/renewSession.js';
export { LABS_SESSION_URL, MYACCOUNT_URL, type SessionProbeResult, type SessionProbeFailure } from './auth/sessionProbeResult.js';
export { launchProfile, type ProfileLaunch } from './auth/launchProfile.js';
export { removeProfileMarkers, writeProfileMarkers } from './auth/markers.js';
export { mostFrequentEmail, sameAccount } from './auth/emailFrequency.js';
export { classifyOracleReply, type OracleVerdict } from './auth/oracleReply.js';
export { cookieStoreState, hasFlowOsidCookie, hasGoogleSessionCookie, hasLabsSessionCookie, type CookieLike, type CookieStoreState } from './auth/cookieChecks.js';
export { chromeLoginArgs, defaultChromeExecutable } from './auth/chromeLaunch.js';
// Credits
export { readCredits, type CreditsBalance, type ReadCreditsOptions } from './account/readCredits.js';
export { parseCreditsText, type CreditsReading } from './account/creditsText.js';
// Projects and media by id
export { createProject, type CreateProjectOptions, type ProjectRef } from './projects/createProject.js';
export { renameProject, type RenameProjectOptions } from './projects/renameProject.js';
export { parseCreateProjectReply, parseRenameProjectReply } from './projects/projectReplies.js';
export { findMediaUrl, downloadMediaById, type FindMediaOptions, type MediaLocation, type DownloadedById } from './projects/findMediaUrl.js';
// Characters
export { listCharacters, showCharacter, type ListCharactersOptions } from './characters/listCharacters.js';
export { selectCharacter, type CharacterSelector } from './characters/selectCharacter.js';
export { parseSearchRows, toCharacters, type FlowCharacter, type PickerRow } from './characters/characterRows.js';
// Instruction cards (Agent-mode brief)
export { readBrief, type BriefOptions } from './instructions/readBrief.js';
export { changeBrief, writeBrief, type BriefWrite } from './instructions/writeBrief.js';
export { applyBriefChange, findCard, type Brief, type BriefCard, type BriefChange, type CardSelector, type NewCard } from './instructions/brief.js';
// Upscale
export { upscaleImage, type ImageUpscaleScale, type UpscaleImageOptions, type UpscaledImage } from './upscale/upscaleImage.js';
export { upscaleVideo, type VideoUpscaleScale, type UpscaleVideoOptions, type UpscaledVideo } from './upscale/upscaleVideo.js';
export { parseImageUpscaleReply, parseVideoUpscaleReply } from './upscale/upscaleReplies.js';
// ---- end of part 2 block ----

// Incident snapshots (appended; what core writes into an incident bundle)
export { UI_ANCHORS, LIGATURE_ANCHORS, MAX_NETWORK_ENTRIES, networkLog, redactPageUrl, type IncidentSnapshot, type UiAnchors, type NetworkEntry } from './session/incidentSnapshot.js';
