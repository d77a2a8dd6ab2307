// @gflow/cli: the citty adapter over core's operations. Curated public API.
export { buildCli, walkCli, type BuildCliOptions, type ExtraCommands } from './buildCli.js';
export { runCli, type RunCliOptions } from './runCli.js';
export { type CliIo, type CliStream, createBufferIo } from './cliIo.js';
export {
  defineLeaf,
  defineGroup,
  leafSpecOf,
  groupSpecOf,
  leafFlags,
  toCittyArgs,
  type LeafSpec,
  type LeafOutput,
  type GroupSpec,
  type ChildEntry,
} from './framework/commandSpec.js';
export type { LeafContext, NodeRuntime } from './framework/leafContext.js';
export { type RuntimeFactory, type RuntimeRequest, defaultRuntimeFactory } from './framework/runtimeFactory.js';
export { type FlagSpec, type FlagKind, type PositionalSpec, flag, kebabOf, JSON_FLAG, PROFILE_FLAG, SANDBOX_FLAG, NO_SPEND_FLAG } from './args/flagSpec.js';
export { zodFlags, zodPositionals, describeSchema, type FlagOverride, type ZodFlagsOptions } from './args/zodFlags.js';
export { parseArgv, type ParsedValues } from './args/parseArgv.js';
export { parseToolSpec, type ToolSpecValue } from './args/toolSpecArg.js';
export { renderFailure } from './output/renderFailure.js';
export { renderHelp } from './output/renderHelp.js';
export { formatProgress, createProgressReporter, type ProgressReporter } from './output/progressReporter.js';
export { MCP_TARGETS, type McpTarget, mcpConfigPath, mcpEntryFor } from './mcpSetup/mcpConfigPath.js';
export { mergeMcpConfig, type McpSetupResult } from './mcpSetup/mergeMcpConfig.js';
export { checkForUpdate, compareVersions, type UpdateReport } from './update/checkForUpdate.js';
