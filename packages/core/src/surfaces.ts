// @gflow/core/surfaces: what gflow's own surfaces — the CLI, the MCP server, the HTTP daemon and the
// app — build on beyond the public API: the operation registry (lazy entries) and its definer, a
// runtime that loads an operation when it first runs it (the CLI: one command, one operation's
// schemas), the runtime's service types, the parsers of the files their commands read, the profile
// and output helpers. Unlike the root, importing it loads no operation.
// Adapters translate; these are the pieces they translate with. Not part of the documented API
// (no compatibility promise across 0.x versions); like the internal packages' indexes, it exports
// only what another package uses (tooling/test/publicIndexes.test.js).
export { loadOperations, loadedOperations, operationEntry } from './operations/registry.js';
export { createGflow } from './runtime/createGflow.js';
export { SETTINGS } from './settings/settingsSpec.js';
export { loadSettings } from './settings/loadSettings.js';
export { defineOperation, annotationsFor, KIND_RANK } from './operations/operation.js';
export type { JobLauncher, LaunchRequest, LaunchedWorker } from './runtime/runtimeServices.js';
export { startBackgroundTask, type BackgroundJob } from './runtime/backgroundTask.js';
export { workerLogFile } from './jobs/queueOwner.js';
export { MEDIA_RESOURCE_CAP_BYTES } from './catalogViews/readCatalogMedia.js';
export { FLOW_ID } from './schemas/flowIdPattern.js';
export { mimeOf } from '@gflow/flow-facts';
export { parseInstructionCardsFile } from './operations/instructionCardsFile.js';
export { parsePromptLines, parseRunConfig } from './operations/runConfigFile.js';
export { parseChainFile } from './operations/chainFile.js';
export { readConfigToml } from './home/configToml.js';
export { validateProfileName, resolveProfile, listProfileNames } from './home/profiles.js';
export { writeFileAtomic } from './output/atomicWrite.js';
export { PROTOTYPE_KEYS } from './runtime/badParameterFromZod.js';
export { registerHomeErrorLog } from './runtime/homeErrorLog.js';
export { MAX_BATCH_ITEMS, MAX_CHAIN_LINKS } from './operations/runLimits.js';
export { isFailureStatus } from './schemas/resultStatus.js';
export { readStoryboardFile } from './movie/storyboardFile.js';
export { STORYBOARD_TEMPLATE } from './movie/storyboardTemplate.js';
