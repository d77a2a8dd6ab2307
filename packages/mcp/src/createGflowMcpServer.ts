import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/server';
import { RESULT_VIEW_MIME_TYPE, UI_EXTENSION, linkAppTools, registerResultView } from './app/mcpApp.js';
import type { FlowRegistry } from './flows/flowRegistry.js';
import { flowIssuesOf } from './flows/flowIssues.js';
import { registerFlows } from './flows/registerFlows.js';
import type { GflowLike, GflowLogger } from './gflowPort.js';
import { registerPrompts } from './prompts/registerPrompts.js';
import { defaultDocsDir } from './resources/docsSource.js';
import { registerResources } from './resources/registerResources.js';
import { registerTasks, TASKS_EXTENSION } from './tasks/registerTasks.js';
import { installTaskCalls } from './tasks/taskCalls.js';
import { registerOperationTools } from './tools/registerOperationTools.js';

export interface GflowMcpServerOptions {
  /** The protocol era the instance serves (informational; one definition serves both). */
  readonly era?: 'legacy' | 'modern';
  /** Where the server logs (default: the runtime's stderr logger). */
  readonly logger?: GflowLogger;
  /** The docs directory holding KNOWN_ISSUES.md (default: the repository's docs/). */
  readonly docsDir?: string;
  /** Declarative flows (openFlowRegistry): their tools, resources and prompts are registered too. */
  readonly flows?: FlowRegistry | undefined;
  /**
   * The instance follows flow reloads in place and tells its client
   * (connection- or session-scoped instances). Instances that serve single
   * requests leave it off: the serving entry replaces them after a reload and
   * publishes changes itself.
   */
  readonly liveFlows?: boolean;
}

export const SERVER_NAME = 'gflow';
export const SERVER_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

/** List results change only on a flow reload, which sends list_changed (evicting client caches): one hour, private. */
const LIST_HINT = { ttlMs: 3_600_000, cacheScope: 'private' } as const;
/** resources/list also lists the newest catalogued media and projects, which change with every generation. */
const CATALOG_LIST_HINT = { ttlMs: 30_000, cacheScope: 'private' } as const;
const READ_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;

/** What `initialize` tells the agent; in no-spend mode nothing about generating, which it cannot do. */
function instructionsFor(noSpend: boolean): string {
  const base =
    "gflow drives Google Flow (Veo video, Nano Banana images) in the user's signed-in browser profile. " +
    'Read gflow://docs/mcp-guide first. Failed calls return {status, error} with RFC 9457 problem details and `retryable`. ';
  return noSpend
    ? `${base}This server is in no-spend mode: it reads the catalog, the projects and the account, and generates nothing.`
    : `${base}A video takes minutes. With the Tasks extension (io.modelcontextprotocol/tasks) declared, generations answer a task your client follows with tasks/get; without it, call with wait=false and follow the task_id with gflow_task_wait (at most 50 s a call; call again while it says pending), gflow_task_get, gflow_task_cancel.`;
}

/**
 * The one server factory: every core operation becomes a tool, plus the
 * built-in prompts, resources, the Tasks extension and the MCP App result view. Stateless by design —
 * cross-call continuity lives in the catalog and the browser profile — so the
 * serving entries may build one instance per connection, or serve one request
 * at a time from each of a pool of them (the HTTP daemon's modern leg, which
 * retires them on a flow reload).
 */
export function createGflowMcpServer(gflow: GflowLike, options: GflowMcpServerOptions = {}): McpServer {
  const logger = options.logger ?? gflow.logger;
  const server = new McpServer(
    { name: SERVER_NAME, title: 'gflow (Google Flow)', version: SERVER_VERSION },
    {
      instructions: instructionsFor(gflow.settings.noSpend),
      capabilities: {
        extensions: { [TASKS_EXTENSION]: {}, [UI_EXTENSION]: { mimeTypes: [RESULT_VIEW_MIME_TYPE] } },
      },
      cacheHints: {
        'tools/list': LIST_HINT,
        'prompts/list': LIST_HINT,
        'resources/list': CATALOG_LIST_HINT,
        'resources/templates/list': LIST_HINT,
        'resources/read': READ_HINT,
        'server/discover': LIST_HINT,
      },
      // A flow reload swaps several entries in one sweep: one list_changed per list.
      debouncedNotificationMethods: [
        'notifications/tools/list_changed',
        'notifications/prompts/list_changed',
        'notifications/resources/list_changed',
      ],
    },
  );
  registerOperationTools(server, gflow, logger);
  installTaskCalls(server, gflow, logger);
  registerPrompts(server, { noSpend: gflow.settings.noSpend });
  registerResources(server, gflow, options.docsDir ?? defaultDocsDir(), flowIssuesOf(options.flows));
  registerTasks(server, gflow);
  // MCP Apps: the result view, linked from the media tools for clients that declare the extension.
  registerResultView(server, SERVER_VERSION);
  if (options.flows) registerFlows(server, gflow, options.flows, logger, options.liveFlows === true);
  linkAppTools(server);
  return server;
}
