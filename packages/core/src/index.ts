// @gflow/core: the public API, curated on purpose (no `export *`). The root
// import stays light: Playwright loads only when a browser is first needed.
export { createGflow } from './runtime/createGflow.js';
export { Gflow, type CreateGflowOptions, type RunOptions } from './runtime/gflow.js';
export { badParameterFromZod } from './runtime/badParameterFromZod.js';
export type {
  RuntimeServices,
  BrowserSessions,
  SessionUse,
  JobLauncher,
  LaunchRequest,
} from './runtime/runtimeServices.js';
export { SURFACE_POLICY, type Surface, type SurfacePolicy } from './runtime/surfacePolicy.js';
export { PROGRESS_PHASES, type ProgressPhase, type ProgressEvent } from './runtime/progressPhases.js';
export type { TaskService, TaskView, TaskStatus } from './runtime/taskService.js';
export type { DrainReport } from './jobs/taskWorker.js';
export { OPERATIONS } from './operations/registry.js';
export { MEDIA_RESOURCE_CAP_BYTES } from './catalogViews/readCatalogMedia.js';
export type { DoctorCheck, Severity as DoctorSeverity } from './health/doctorChecks.js';
export {
  type Operation,
  type OperationKind,
  type OperationContext,
  defineOperation,
  annotationsFor,
  KIND_RANK,
} from './operations/operation.js';
export {
  RESULT_STATUSES,
  FAILURE_STATUSES,
  isFailureStatus,
  type ResultStatus,
  type FailureStatus,
} from './operations/resultStatus.js';
export {
  generateImageInput,
  generateVideoInput,
  generationResult,
  type GenerateImageInput,
  type GenerateVideoInput,
  type GenerationResult,
  FLOW_ID,
} from './operations/generationSchemas.js';
export {
  planImage,
  planVideo,
  type ImagePlan,
  type VideoPlan,
  type MediaRef,
  MEDIA_UUID,
} from './operations/validateGeneration.js';
// The Flow facts adapters need (the model table, the profile-name rule, the marker files) come from
// @gflow/flow-facts, their one home; core passes them on so adapters import core only.
export {
  IMAGE_MODELS,
  VIDEO_MODELS,
  IMAGE_ASPECTS,
  VIDEO_ASPECTS,
  type ImageModel,
  type VideoModel,
  findImageModel,
  findVideoModel,
  ACCOUNT_MARKER,
  readProfileMarkersSync,
  mimeOf,
  sniffMedia,
} from '@gflow/flow-facts';
export { parseInstructionCardsFile, type InstructionCardEntry } from './operations/instructionCardsFile.js';
export { parsePromptLines, parseRunConfig, type RunConfigPrompt } from './operations/runConfigFile.js';
export { MAX_CHAIN_LINKS, parseChainFile, type ChainResult } from './operations/chainOperation.js';
export {
  MAX_BATCH_ITEMS,
  generateBatchInput,
  parseJitter,
  type GenerateBatchInput,
  type GenerateBatchResult,
} from './operations/batchOperation.js';
export { BUILTIN_PROMPT_TOOLS, loadPromptTools, expandPrompt, type PromptTool } from './promptTools/promptTools.js';
export { SETTINGS, type SettingKey, type SettingSpec, type Settings } from './settings/settingsSpec.js';
export {
  loadSettings,
  leaseWaitSecondsFor,
  type ResolvedSettings,
  type LoadSettingsOptions,
  type SettingSource,
} from './settings/loadSettings.js';
export { defaultHome, defaultOutputDir } from './settings/platformDirs.js';
export { homeLayout, type HomeLayout } from './home/homeLayout.js';
export {
  readConfigToml,
  writeConfigToml,
  usageRecordingEnabled,
  setUsageRecording,
  type ConfigToml,
} from './home/configToml.js';
export {
  validateProfileName,
  resolveProfile,
  listProfileNames,
  profileDirOf,
  type ResolvedProfile,
} from './home/profiles.js';
export { confineToOutputDir, assertNotDirectory } from './output/confine.js';
export { writeFileAtomic } from './output/atomicWrite.js';
export { createLogger, type Logger, type LogLevel, type LogSink } from './runtime/logger.js';
export { type BrowserOverrides, findBrowserExecutable } from './jobs/browserLaunch.js';
