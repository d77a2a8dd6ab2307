import type { z } from 'zod';
import { authRenew, authStatus, getCredits } from './accountOperations.js';
import { authLogin } from './authOperations.js';
import { characterList, characterShow } from './characterOperations.js';
import { projectsCreate, projectsRename } from './flowProjectOperations.js';
import { INSTRUCTION_OPERATIONS } from './instructionOperations.js';
import { downloadMedia, upscaleImage, upscaleVideo } from './mediaOperations.js';
import { stitchVideos } from './stitchOperation.js';
import { uploadImage } from './uploadOperation.js';
import { syncCatalog } from './syncOperation.js';
import { listProjects, usageStats } from './catalogOperations.js';
import { creditUsage } from './creditOperations.js';
import { catalogProjectSummary, listProfileActivity, showProject } from './projectCatalog.js';
import { doctor, doctorFix, pruneMissingFiles } from './housekeeping.js';
import { exportErrors, listErrors, pruneErrors } from './errorLog.js';
import { listMedia, readMediaBytes, recentCatalogMedia, showMedia } from './mediaCatalog.js';
import { checkFlow } from './checkFlowOperation.js';
import { generateImage, generateVideo } from './generateOperations.js';
import { generateBatch } from './batchOperation.js';
import { chainStatus, generateChain } from './chainOperation.js';
import { deleteProfile, listProfiles, telemetry, useProfile } from './profileOperations.js';
import { TASK_OPERATIONS } from './taskOperations.js';
import { resumeTask } from './resumeOperation.js';
import { GALLERY_OPERATIONS } from './galleryOperations.js';
import type { Operation } from './operation.js';
import { characterVoices, listModels, listTools, runPromptTools } from './staticOperations.js';

/** Every operation, each with its own types (what `gflow.run` checks a call against). */
const REGISTERED = [
  generateImage,
  generateVideo,
  generateBatch,
  generateChain,
  chainStatus,
  resumeTask,
  authLogin,
  authStatus,
  authRenew,
  getCredits,
  characterList,
  characterShow,
  downloadMedia,
  uploadImage,
  upscaleImage,
  upscaleVideo,
  stitchVideos,
  projectsCreate,
  projectsRename,
  ...INSTRUCTION_OPERATIONS,
  listModels,
  listTools,
  runPromptTools,
  characterVoices,
  listProjects,
  usageStats,
  creditUsage,
  listMedia,
  listProfileActivity,
  listErrors,
  showMedia,
  showProject,
  pruneMissingFiles,
  syncCatalog,
  exportErrors,
  pruneErrors,
  recentCatalogMedia,
  catalogProjectSummary,
  readMediaBytes,
  doctor,
  doctorFix,
  checkFlow,
  listProfiles,
  useProfile,
  deleteProfile,
  telemetry,
  ...TASK_OPERATIONS,
  ...GALLERY_OPERATIONS,
] as const;

/**
 * Every operation gflow offers, declared once. The MCP tools, the CLI
 * commands and the parity check derive from this list.
 */
export const OPERATIONS: readonly Operation[] = REGISTERED as unknown as readonly Operation[];

/** Any one of gflow's operations, with its own types (what `createGflow()`'s runtime offers). */
export type RegisteredOperation = (typeof REGISTERED)[number];

/** What the runtime's typing reads of an operation: its literal names and its zod schemas. */
export interface OperationShape {
  readonly name: string;
  readonly mcpName: string;
  readonly input: z.ZodObject;
  readonly output: z.ZodType;
}

/**
 * The names of a set of operations: each one's camelCase name and its MCP name. A member whose
 * name is only `string` (OperationShape itself, in `Gflow`'s default) names nothing, so a
 * misspelling never matches it.
 */
export type NameOf<O extends OperationShape> = O extends O
  ? string extends O['name']
    ? never
    : O['name'] | O['mcpName']
  : never;

/** The operation of a set that a name (either form) stands for. */
export type NamedIn<O extends OperationShape, N extends string> = Extract<
  O,
  { readonly name: N } | { readonly mcpName: N }
>;

/** A name `gflow.run` knows: an operation's camelCase name (`generateImage`) or its MCP name (`gflow_generate_image`). */
export type OperationName = NameOf<RegisteredOperation>;

/** The operation a name (either form) stands for. */
export type OperationNamed<N extends string> = NamedIn<RegisteredOperation, N>;

/** What `gflow.run(name, input)` takes as `input`: the operation's zod input, before defaults are applied. */
export type OperationInput<N extends string> = z.input<OperationNamed<N>['input']>;

/** What `gflow.run(name, …)` resolves to: the operation's zod output. */
export type OperationOutput<N extends string> = z.output<OperationNamed<N>['output']>;
