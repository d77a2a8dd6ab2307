// @gflow/testkit/cli: the real gflow binary and other child processes. `cli(args, options)` runs
// `node apps/app/bin/gflow.js …` and returns {stdout, stderr, exitCode, ms}; the MCP servers run
// as children too (`gflow mcp run` over stdio, `gflow serve` over HTTP, any stdio fixture).
export {
  GFLOW_BIN,
  REPO_ROOT,
  cli,
  cliEnv,
  makeHome,
  spawnCli,
  type CliChild,
  type CliOptions,
} from './gflowProcess.js';
export { connectStdio, gflowHttp, gflowStdio, startServe, type ServeProcess, type StdioServer } from './mcpProcess.js';
export { json, jsonLines, type CliResult } from './output.js';
export { holdSqliteLock, type SqliteLockHolder } from './sqliteLockHolder.js';
