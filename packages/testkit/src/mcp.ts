// @gflow/testkit/mcp: MCP clients in process or over HTTP (no child process; the tests beside the
// code may use it). Stdio servers and `gflow serve` are in @gflow/testkit/cli.
export {
  ERAS,
  TASKS_CAPABILITIES,
  connectHttp,
  connectMcp,
  mcpClient,
  type ConnectOptions,
  type Era,
  type HttpConnectOptions,
  type McpConnection,
  type ToolReply,
} from './mcpClient.js';
export { modernRequest, modernResult, type JsonRpcAnswer, type ModernRequestOptions } from './modernRequest.js';
export { connectTaskRequester, resultFromTaskOutcome, type TaskRequester } from './taskRequester.js';
