export { createGflowMcpServer } from './createGflowMcpServer.js';
export { serveGflowStdio } from './transport/serveGflowStdio.js';

export { PARSE_ERROR_RESPONSE, judgeJsonRpcMessage } from './transport/jsonRpcInput.js';
export type { GflowLike } from './gflowPort.js';
export { taskListenMessages, taskListenOf, type TaskListen } from './tasks/taskNotifications.js';

export { FlowRegistry } from './flows/flowRegistry.js';
export { openFlowRegistry, type FlowsOptions } from './flows/openFlowRegistry.js';

export { readMcpServerConfig } from './flows/mcpServerConfig.js';
