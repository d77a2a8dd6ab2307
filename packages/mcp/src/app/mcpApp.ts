import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  getUiCapability,
  registerAppResource,
} from '@modelcontextprotocol/ext-apps/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ListToolsResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { cachedResultViewHtml } from './resultViewHtml.js';

/** The MCP Apps extension (SEP-1865): a client that declares it can render `ui://` resources. */
export const UI_EXTENSION = EXTENSION_ID;
export const RESULT_VIEW_URI = 'ui://gflow/result.html';
export { RESOURCE_MIME_TYPE as RESULT_VIEW_MIME_TYPE };

/** The tools whose results the view renders: generations, downloads and upscales (media), projects (a list). */
export const APP_TOOLS: ReadonlySet<string> = new Set([
  'gflow_generate_image',
  'gflow_generate_video',
  'gflow_generate_batch',
  'gflow_generate_chain',
  'gflow_upscale_image',
  'gflow_upscale_video',
  'gflow_download_media',
  'gflow_list_projects',
]);

/** No outside origin of any kind: the view's media come from gflow://media through the host. */
const NO_ORIGINS = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/**
 * The `ui://gflow/result.html` resource, listed and readable for every client
 * (a client without the extension simply never opens it; reading it reveals
 * nothing but the page). Its text is built on the first read.
 */
export function registerResultView(server: McpServer, version: string): void {
  const uiMeta = { ui: { csp: NO_ORIGINS, prefersBorder: true } };
  registerAppResource(
    server,
    'result-view',
    RESULT_VIEW_URI,
    {
      title: 'gflow result view',
      description:
        'MCP App (io.modelcontextprotocol/ui): renders a gflow tool result — images, videos, a queued task, a failure, a project list — in the host. Media bytes come from gflow://media/<id>.',
      mimeType: RESOURCE_MIME_TYPE,
      _meta: uiMeta,
    },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: cachedResultViewHtml(version), _meta: uiMeta }],
    }),
  );
}

/** Whether the client behind this request declared the MCP Apps extension. */
export function clientDeclaresUi(server: McpServer, ctx: ServerContext): boolean {
  // Modern (2026-07-28): the request's own envelope. Legacy: what `initialize` declared — the
  // low-level accessor is deprecated for the modern era only, which reads the envelope above.
  // (The SDK declares the envelope's type as `{}`: its keys are read by name.)
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const modern = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const capabilities: ClientCapabilities | undefined = modern ?? server.server.getClientCapabilities();
  return getUiCapability(capabilities) !== undefined;
}

/** A tool entry of tools/list linked to the view: `_meta.ui.resourceUri` and the flat legacy key, as registerAppTool writes them. */
function linkedTool(tool: ListToolsResult['tools'][number]): ListToolsResult['tools'][number] {
  const meta = tool._meta ?? {};
  const ui = typeof meta['ui'] === 'object' && meta['ui'] !== null ? meta['ui'] : {};
  return {
    ...tool,
    _meta: { ...meta, ui: { ...ui, resourceUri: RESULT_VIEW_URI }, [RESOURCE_URI_META_KEY]: RESULT_VIEW_URI },
  };
}

type RequestHandler = (request: unknown, ctx: ServerContext) => Promise<ListToolsResult>;

/**
 * Links the APP_TOOLS to the view in tools/list, for clients that declared the
 * extension only: every other client gets the SDK's tools/list unchanged.
 *
 * McpServer answers tools/list from its registered tools with no per-request
 * hook, so this is the one place gflow wraps an SDK handler: it takes the
 * handler McpServer installed (through the Protocol's protected accessor for
 * stored handlers), puts a wrapper in its place, and adds the link to the
 * wrapped answer. Call it after the tools are registered (McpServer installs
 * its handler with the first tool, once; later registrations reuse it).
 */
export function linkAppTools(server: McpServer): void {
  const low = server.server as unknown as { _getRequestHandler(method: string): RequestHandler | undefined };
  const original = low._getRequestHandler('tools/list');
  if (!original) return;
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler('tools/list', async (request, ctx) => {
    const listed = await original(request, ctx);
    if (!clientDeclaresUi(server, ctx)) return listed;
    return { ...listed, tools: listed.tools.map((tool) => (APP_TOOLS.has(tool.name) ? linkedTool(tool) : tool)) };
  });
}
