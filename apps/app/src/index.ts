// @gflow/app: the gflow binary (bin/gflow.js → src/main.ts). Embedders can run the same command line.
export { runGflow, type RunGflowOptions } from './runGflow.js';
export { appRuntimeFactory } from './appRuntimeFactory.js';
export { APP_COMMANDS } from './appCommands.js';
export { GFLOW_VERSION } from './version.js';
