// @gflow/flow-facts: what gflow knows about Google Flow, in one place, for core, the catalog, the
// lease and the driver alike. Pure (node:fs only, for the marker readers); no Playwright, no zod.
// Curated public API (no `export *`).

// Models: the one table
export {
  IMAGE_MODELS,
  VIDEO_MODELS,
  findImageModel,
  findVideoModel,
  imageModelSpellings,
  videoModelSpellings,
  normaliseAlias,
  type ImageModel,
  type ImageModelName,
  type ImageMenuEntry,
  type MenuEntry,
  type VideoKeyFamily,
  type VideoModel,
  type VideoModelName,
} from './models.js';
export {
  candidateShown,
  labelMatches,
  pickMenuCandidate,
  pickMenuEntry,
  type CandidatePick,
  type MenuPick,
} from './menu.js';
export { clipSecondsOfKey, looksLikeVideoKey, readVideoKey, videoModelOfKey, type KeyReading } from './videoKeys.js';

// Aspects, resolutions, modes
export {
  IMAGE_ASPECTS,
  VIDEO_ASPECTS,
  VIDEO_RESOLUTIONS,
  IMAGE_ASPECT_ICONS,
  VIDEO_ASPECT_ICONS,
  VIDEO_ASPECT_INDEX,
  type ImageAspect,
  type VideoAspect,
  type VideoResolution,
  type VideoMode,
} from './aspects.js';

// Generation rules
export {
  DEFAULT_VIDEO_DURATIONS,
  DEFAULT_I2V_VIDEO_MODEL,
  R2V_VEO_SECONDS,
  DEFAULT_R2V_REF_CAP,
  DEFAULT_MAX_DURATION_WITH_END_FRAME,
  r2vPinsDuration,
  videoDurationsOf,
  maxDurationWithEndFrame,
  videoRefCap,
} from './rules.js';
export {
  judgeImageRequest,
  judgeVideoRequest,
  requireNoViolation,
  violationError,
  type CharacterFact,
  type ImageRequestFacts,
  type ImageVerdict,
  type RuleViolation,
  type VideoRequestFacts,
  type VideoVerdict,
} from './requestRules.js';

// Media: magic bytes, MIME types, the upload cap
export {
  MAX_UPLOAD_BYTES,
  isMp4,
  mimeOf,
  sniffImage,
  sniffMedia,
  type ImageExtension,
  type MediaExtension,
} from './media.js';

// Profiles: the name rule and the marker files
export {
  PROFILE_NAME_RULE,
  assertProfileName,
  isProfileName,
  profileNameFromEmail,
  profileNameVerdict,
  type ProfileNameVerdict,
} from './profileNames.js';
export {
  ACCOUNT_MARKER,
  COOKIE_STORE_PATHS,
  STRATEGY_MARKER,
  loginStrategyOf,
  readProfileMarkers,
  readProfileMarkersSync,
  type LoginStrategy,
  type ProfileMarkers,
} from './markers.js';

// Flow's web app: its origin and the project editor URL
export { FLOW_ORIGIN, flowProjectUrl } from './flowUrls.js';

// Flow's ids: what a project, media or workflow id looks like
export { FLOW_UUID, isFlowUuid } from './flowIds.js';

// A clip's status in Flow's records, and the words a person reads for it
export { VIDEO_STATUS, videoPhase, videoStatusWords, type VideoPhase } from './videoStatus.js';
