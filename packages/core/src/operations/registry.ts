import { authRenew, authStatus, getCredits } from './accountOperations.js';
import { authLogin } from './authOperations.js';
import { characterList, characterShow } from './characterOperations.js';
import { projectsCreate, projectsRename } from './flowProjectOperations.js';
import { INSTRUCTION_OPERATIONS } from './instructionOperations.js';
import { downloadMedia, upscaleImage, upscaleVideo } from './mediaOperations.js';
import { uploadImage } from './uploadOperation.js';
import { listProjects, usageStats } from './catalogOperations.js';
import { creditUsage } from './creditOperations.js';
import {
  catalogProjectSummary,
  doctor,
  doctorFix,
  exportErrors,
  listErrors,
  listMedia,
  listProfileActivity,
  pruneErrors,
  pruneMissingFiles,
  readMediaBytes,
  recentCatalogMedia,
  showMedia,
  showProject,
} from './catalogQueries.js';
import { generateImage, generateVideo } from './generateOperations.js';
import { generateBatch } from './batchOperation.js';
import { chainStatus, generateChain } from './chainOperation.js';
import { deleteProfile, listProfiles, telemetry, useProfile } from './profileOperations.js';
import { TASK_OPERATIONS } from './taskOperations.js';
import type { Operation } from './operation.js';
import { characterVoices, listModels, listTools, runPromptTools } from './staticOperations.js';

/**
 * Every operation gflow offers, declared once. The MCP tools, the CLI
 * commands and the parity check derive from this list.
 */
export const OPERATIONS: readonly Operation[] = [
  generateImage,
  generateVideo,
  generateBatch,
  generateChain,
  chainStatus,
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
  exportErrors,
  pruneErrors,
  recentCatalogMedia,
  catalogProjectSummary,
  readMediaBytes,
  doctor,
  doctorFix,
  listProfiles,
  useProfile,
  deleteProfile,
  telemetry,
  ...TASK_OPERATIONS,
] as readonly Operation[];
