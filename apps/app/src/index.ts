// @gflow/app: the gflow binary (bin/gflow.js → src/main.ts). Embedders can run the same command line.
export { runGflow, type RunGflowOptions } from './runGflow.js';
export { appRuntimeFactory } from './appRuntimeFactory.js';
export { mcpRunCommand } from './commands/mcpRunCommand.js';
export { serveCommand } from './commands/serveCommand.js';
export { GFLOW_VERSION } from './version.js';
