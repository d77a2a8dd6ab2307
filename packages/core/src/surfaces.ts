// @gflow/core/surfaces: what gflow's own surfaces — the CLI, the MCP server, the HTTP daemon and the
// app — build on beyond the public API: the operation registry and its definer, the runtime's
// service types, the parsers of the files their commands read, the profile and output helpers.
// Adapters translate; these are the pieces they translate with. Not part of the documented API
// (no compatibility promise across 0.x versions); like the internal packages' indexes, it exports
// only what another package uses (tooling/test/publicIndexes.test.js).
export {
  OPERATION_ENTRIES,
  loadOperations,
  operationEntry,
  type OperationEntry,
} from './operations/registry.js';
export { createGflow } from './runtime/createGflow.js';
export { SETTINGS } from './settings/settingsSpec.js';
export { loadSettings } from './settings/loadSettings.js';
export { defineOperation, annotationsFor, KIND_RANK } from './operations/operation.js';
export type { JobLauncher, LaunchRequest } from './runtime/runtimeServices.js';
export { MEDIA_RESOURCE_CAP_BYTES } from './catalogViews/readCatalogMedia.js';
export { FLOW_ID } from './schemas/params.js';
export { mimeOf } from '@gflow/flow-facts';
export { parseInstructionCardsFile } from './operations/instructionCardsFile.js';
export { parsePromptLines, parseRunConfig } from './operations/runConfigFile.js';
export { parseChainFile } from './operations/chainOperation.js';
export { readConfigToml } from './home/configToml.js';
export { validateProfileName, resolveProfile } from './home/profiles.js';
export { writeFileAtomic } from './output/atomicWrite.js';
