import { authLogin, authStatus } from './authOperations.js';
import { listProjects, usageStats } from './catalogOperations.js';
import { generateImage, generateVideo } from './generateOperations.js';
import type { Operation } from './operation.js';
import { characterVoices, listModels, listTools, runPromptTools } from './staticOperations.js';

/**
 * Every operation gflow offers, declared once. The MCP tools, the CLI
 * commands and the parity check derive from this list.
 */
export const OPERATIONS: readonly Operation[] = [
  generateImage,
  generateVideo,
  authLogin,
  authStatus,
  listModels,
  listTools,
  runPromptTools,
  characterVoices,
  listProjects,
  usageStats,
] as readonly Operation[];
