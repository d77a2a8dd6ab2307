import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { createGflowMcpServer, type FlowRegistry, type GflowLike, taskListenOf } from '@gflow/mcp';
import { Hono, type Context } from 'hono';
import { GallerySessions } from './gallery/galleryAuth.js';
import { daemonGate, loginPathOf, mountGallery } from './gallery/galleryRoutes.js';
import { createGuardedMcpApp } from './guardedMcpApp.js';
import { DEFAULT_LEGACY_SESSION_LIMITS, type LegacySessionLimits, LegacySessions } from './legacySessions.js';
import { createModernServerPool } from './modernServerPool.js';
import { carriesEnvelopeClaim } from './envelopeClaim.js';
import { isLoopbackBind } from './loopback.js';
import { SseServerTransport } from './sseServerTransport.js';
import { taskListenResponse } from './taskListenStream.js';

export type HttpTransportKind = 'http' | 'sse';

export interface GflowHttpAppOptions {
  /** The bind host; it decides the Host/Origin allow-list (DNS-rebinding guard). */
  readonly host: string;
  readonly port: number;
  /** Every request must present `Authorization: Bearer <token>` when set. */
  readonly token?: string | undefined;
  /** `http` (default): Streamable HTTP at /mcp. `sse`: also the deprecated /sse + /messages/. */
  readonly transport?: HttpTransportKind;
  /** Overrides the Host allow-list (e.g. a LAN name for a 0.0.0.0 bind). */
  readonly allowedHosts?: readonly string[];
  readonly docsDir?: string;
  /** The Streamable HTTP endpoint (default /mcp; config.toml [mcp_server] path). */
  readonly path?: string;
  /** Declarative flows: registered on every instance; reloads reach legacy sessions and modern listen streams. */
  readonly flows?: FlowRegistry | undefined;
  /** Sessionful sessions without a request for this long are closed (default: GFLOW_CLI_MCP_SESSION_IDLE_SECONDS, 600 s). */
  readonly sessionIdleMs?: number;
  /** At most this many sessionful sessions (default: GFLOW_CLI_MCP_MAX_SESSIONS, 256). */
  readonly maxSessions?: number;
}

export interface GflowHttpApp {
  readonly app: Hono;
  /** Web-standard face of the app (tests call it in process). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Pushes list_changed to legacy sessions and to modern `subscriptions/listen` streams. */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  /** The number of open legacy sessions (sessionful /mcp and SSE). */
  readonly sessionCount: () => number;
  /** Reusable modern instances (tests, diagnostics). */
  readonly modernPool: { readonly idle: number; readonly built: number };
  /** A one-time gallery login path (`/login?code=…`) when the daemon has a token, else undefined. */
  mintLoginPath(): string | undefined;
  /** Closes every session and the modern handler (not the runtime). */
  close(): Promise<void>;
}

export const MESSAGES_PATH = '/messages/';

/** The sessions' bounds: the options, else the runtime's settings, else the defaults. */
function sessionLimitsOf(gflow: GflowLike, options: GflowHttpAppOptions): LegacySessionLimits {
  const settings = gflow.settings as { mcpSessionIdleSeconds?: number; mcpMaxSessions?: number };
  const idleSeconds = settings.mcpSessionIdleSeconds;
  return {
    idleMs:
      options.sessionIdleMs ?? (idleSeconds === undefined ? DEFAULT_LEGACY_SESSION_LIMITS.idleMs : idleSeconds * 1000),
    maxSessions: options.maxSessions ?? settings.mcpMaxSessions ?? DEFAULT_LEGACY_SESSION_LIMITS.maxSessions,
    onExpire: (_id, why) => gflow.logger.info('http.mcp.session_closed', { why }),
  };
}

/**
 * The Hono app behind `gflow serve`. Layers, outermost first: the gate (bearer auth; the
 * gallery's pages also take its session cookie);
 * Host/Origin validation (createMcpHonoApp's DNS-rebinding guard, see
 * guardedMcpApp.ts); JSON body parsing; then /mcp, where modern (2026-07-28) requests go to
 * createMcpHandler and 2025-era requests to a sessionful Streamable HTTP leg
 * (`Mcp-Session-Id` + the GET SSE stream, so legacy clients get list_changed);
 * and, with transport 'sse', the deprecated /sse + /messages/.
 */
export function createGflowHttpApp(gflow: GflowLike, options: GflowHttpAppOptions): GflowHttpApp {
  const serverOptions = { ...(options.docsDir ? { docsDir: options.docsDir } : {}), flows: options.flows };
  const mcpPath = options.path ?? '/mcp';
  const logger = gflow.logger;
  // Modern instances serve one request at a time and are reused (modernServerPool.ts): each registers
  // the flows current when it was built, a reload retires them, and changes go out through notify.
  const pool = createModernServerPool(() => createGflowMcpServer(gflow, { era: 'modern', ...serverOptions }));
  const modern = createMcpHandler(() => pool.acquire(), {
    legacy: 'reject',
    onerror: (error) => logger.debug('http.mcp.modern_error', { error: error.message }),
  });
  const sessions = new LegacySessions(sessionLimitsOf(gflow, options));
  // Legacy session instances follow reloads themselves (liveFlows); modern clients hear on subscriptions/listen.
  const stopFollowingFlows = options.flows?.onChange((change) => {
    pool.invalidate();
    if (change.tools) modern.notify.toolsChanged();
    if (change.prompts) modern.notify.promptsChanged();
    if (change.resources) modern.notify.resourcesChanged();
  });

  const app = new Hono();
  const gallerySessions = new GallerySessions();
  const isMcpPath = (path: string): boolean =>
    path === mcpPath || (options.transport === 'sse' && (path === '/sse' || path === MESSAGES_PATH));
  if (options.token) app.use('*', daemonGate(options.token, gallerySessions, isMcpPath));

  const guardedHost = isLoopbackBind(options.host) ? '127.0.0.1' : options.host;
  const allowedHosts =
    options.allowedHosts ??
    (isLoopbackBind(options.host) || options.host === '0.0.0.0' || options.host === '::' ? undefined : [options.host]);
  const mcp = createGuardedMcpApp({
    host: guardedHost,
    allowedHosts,
    warn: (detail) => logger.warn('http.serve.no_host_guard', { detail }),
  });

  mcp.all(mcpPath, async (c: Context) => {
    const parsedBody: unknown = c.get('parsedBody');
    if (carriesEnvelopeClaim(parsedBody) || !(await isLegacyRequest(c.req.raw, parsedBody))) {
      // Task status notifications (SEP-2663), which the SDK's listen router cannot carry, are served here.
      const taskListen = c.req.header('mcp-method') === 'subscriptions/listen' ? taskListenOf(parsedBody) : undefined;
      if (taskListen) return taskListenResponse(gflow, taskListen, c.req.raw.signal);
      return modern.fetch(c.req.raw, { parsedBody });
    }
    const sessionId = c.req.header('mcp-session-id');
    if (sessionId) {
      const transport = sessions.streamable(sessionId);
      if (!transport)
        return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404);
      return transport.handleRequest(c.req.raw, { parsedBody });
    }
    const server = createGflowMcpServer(gflow, { era: 'legacy', liveFlows: true, ...serverOptions });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, { server, transport }),
      onsessionclosed: (id) => sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody });
  });

  if (options.transport === 'sse') {
    mcp.get('/sse', async () => {
      const transport = new SseServerTransport(MESSAGES_PATH);
      const server = createGflowMcpServer(gflow, { era: 'legacy', liveFlows: true, ...serverOptions });
      sessions.add(transport.sessionId, { server, transport });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await server.connect(transport);
      return transport.response();
    });
    mcp.post(MESSAGES_PATH, (c: Context) => {
      const session = sessions.get(c.req.query('session_id') ?? '');
      if (!session || !(session.transport instanceof SseServerTransport)) return c.text('Session not found', 404);
      const body: unknown = c.get('parsedBody');
      if (body === undefined) return c.text('Expected a JSON-RPC message (Content-Type: application/json)', 400);
      for (const message of Array.isArray(body) ? body : [body]) session.transport.receive(message as JSONRPCMessage);
      return c.text('Accepted', 202);
    });
  }

  // The gallery at / (galleryRoutes.ts): behind the same Host/Origin guard and gate as /mcp.
  mountGallery(mcp, { gflow, token: options.token, sessions: gallerySessions, isMcpPath });

  app.route('/', mcp);

  return {
    app,
    fetch: async (request) => app.fetch(request),
    notifyListChanged(kind) {
      pool.invalidate();
      sessions.notify(kind);
      if (kind === 'tools') modern.notify.toolsChanged();
      else if (kind === 'prompts') modern.notify.promptsChanged();
      else modern.notify.resourcesChanged();
    },
    sessionCount: () => sessions.size,
    mintLoginPath: () => (options.token ? loginPathOf(gallerySessions.mintCode()) : undefined),
    modernPool: pool,
    async close() {
      stopFollowingFlows?.();
      await sessions.closeAll();
      await modern.close();
      pool.invalidate();
    },
  };
}
