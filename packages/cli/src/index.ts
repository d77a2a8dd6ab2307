// @gflow/cli: the CLI adapter over core's operations. Curated public API.
export { buildCli, walkCli } from './buildCli.js';
export { runCli } from './runCli.js';
export type { CliIo } from './cliIo.js';
export {
  defineLeaf,
  leafSpecOf,
  groupSpecOf,
  leafFlags,
  type CommandDef,
  type LeafSpec,
  type ChildEntry,
} from './framework/commandSpec.js';

export { type RuntimeFactory, backgroundFor, defaultRuntimeFactory } from './framework/runtimeFactory.js';
export { type FlagSpec, type PositionalSpec, flag, PROFILE_FLAG, NO_SPEND_FLAG } from './args/flagSpec.js';

export { renderHelp } from './output/renderHelp.js';
