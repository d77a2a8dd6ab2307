export { createGflowMcpServer, SERVER_NAME, SERVER_VERSION, type GflowMcpServerOptions } from './createGflowMcpServer.js';
export { serveGflowStdio, type ServeGflowStdioOptions, type GflowStdioHandle } from './transport/serveGflowStdio.js';
export { redirectStdoutToStderr } from './transport/stdoutGuard.js';
export type { GflowLike, GflowLogger } from './gflowPort.js';
export { TASKS_EXTENSION } from './tasks/registerTasks.js';
export { MCP_GUIDE_URI, KNOWN_ISSUES_URI, KNOWN_ISSUE_TEMPLATE, DB_SCHEMA_URI } from './resources/registerResources.js';
export { parseKnownIssues, slugOf, type KnownIssue } from './resources/knownIssues.js';
export { errorToolResult, type ErrorEnvelope } from './tools/errorEnvelope.js';
