// @gflow/core: the public API for embedders, curated on purpose (no `export *`): the runtime, the
// operations' names and types, their schemas, settings, and the Flow facts a program needs to
// choose its inputs. docs/api/core.md is generated from it (every export has a doc comment).
// The root import stays light: Playwright and SQLite load only when an operation first needs them.
// What only gflow's own CLI, MCP server and HTTP daemon build on is `@gflow/core/surfaces`; the
// zero-credit simulator is `@gflow/core/sandbox`.
// Importing the library loads every operation (top-level await in everyOperation.ts), so a runtime's
// operations() answers at once; gflow's CLI imports @gflow/core/surfaces instead and loads what it runs.
import './operations/everyOperation.js';
export { createGflow } from './runtime/createGflow.js';
export { Gflow, type CreateGflowOptions, type RunOptions } from './runtime/gflow.js';
export type { ImageCalls, VideoCalls } from './runtime/operationFacade.js';
export { orThrow } from './runtime/orThrow.js';
export type {
  OperationName,
  OperationInput,
  OperationOutput,
  OperationShape,
  RegisteredOperation,
  NameOf,
  NamedIn,
} from './operations/registry.js';
export type { Operation, OperationKind } from './operations/operation.js';
export { SURFACE_POLICY, type Surface, type SurfacePolicy } from './runtime/surfacePolicy.js';
export { PROGRESS_PHASES, type ProgressPhase, type ProgressEvent } from './runtime/progressPhases.js';
export type { StepView, TaskService, TaskView, TaskStatus } from './runtime/taskService.js';
export {
  RESULT_STATUSES,
  FAILURE_STATUSES,
  isFailureStatus,
  type ResultStatus,
  type FailureStatus,
} from './schemas/resultStatus.js';
export {
  generateImageInput,
  generateVideoInput,
  generationResult,
  type GenerateImageInput,
  type GenerateVideoInput,
  type GenerationResult,
  type CompletedGeneration,
  type FailedGeneration,
  type GeneratedMedia,
} from './generation/schemas.js';
export { generateBatchInput, type GenerateBatchInput } from './operations/batchOperation.js';
export { MAX_BATCH_ITEMS, MAX_CHAIN_LINKS } from './operations/runLimits.js';
export { type ChainResult, type GenerateBatchResult, type MovieResult } from './runs/runResults.js';
// The Flow facts a program chooses its inputs from come from @gflow/flow-facts, their one home;
// core passes them on so a program imports core only.
export {
  IMAGE_MODELS,
  VIDEO_MODELS,
  IMAGE_ASPECTS,
  VIDEO_ASPECTS,
  type ImageModel,
  type VideoModel,
  findImageModel,
  findVideoModel,
} from '@gflow/flow-facts';
export { SETTINGS, type SettingKey, type SettingSpec, type Settings } from './settings/settingsSpec.js';
export {
  loadSettings,
  type ResolvedSettings,
  type LoadSettingsOptions,
  type SettingSource,
} from './settings/loadSettings.js';
export { defaultHome, defaultOutputDir } from './settings/platformDirs.js';
export { listProfileNames } from './home/profiles.js';
export { createLogger, type Logger, type LogLevel, type LogSink } from './runtime/logger.js';
export { type BrowserOverrides, findBrowserExecutable } from './jobs/browserLaunch.js';
export type { DoctorCheck, Severity as DoctorSeverity } from './health/doctorCheck.js';
