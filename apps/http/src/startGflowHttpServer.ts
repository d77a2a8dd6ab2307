import type { ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { ConfigurationError } from '@gflow/errors';
import { FlowRegistry, openFlowRegistry, readMcpServerConfig, type FlowsOptions, type GflowLike } from '@gflow/mcp';
import { createGflowHttpApp, type GflowHttpApp, type HttpTransportKind } from './createGflowHttpApp.js';
import { readCredentialsToken } from './credentialsFile.js';
import { isLoopbackBind } from './loopback.js';

export interface StartGflowHttpServerOptions {
  readonly host?: string;
  /** 0 picks a free port. Default: config.toml [mcp_server] port, else the daemonPort setting (8000). */
  readonly port?: number;
  /** Default: the daemonToken setting (GFLOW_DAEMON_TOKEN / GFLOW_CLI_DAEMON_TOKEN), else the [mcp_server] credentials_path file. */
  readonly token?: string;
  /** The Streamable HTTP endpoint; default: config.toml [mcp_server] path, else /mcp. */
  readonly path?: string;
  /**
   * Declarative flows: `<home>/flows` plus `dirs` (`--flows DIR`), watched
   * (default); an open registry to share; or false for none.
   */
  readonly flows?: FlowsOptions | FlowRegistry | false;
  readonly transport?: HttpTransportKind;
  readonly allowedHosts?: readonly string[];
  readonly docsDir?: string;
  /** Also stop on SIGINT/SIGTERM (the CLI entry sets it). */
  readonly handleSignals?: boolean;
  /** A request (headers and body) not received whole within this long is answered 408 and closed (default 25 s). */
  readonly requestTimeoutMs?: number;
  /** Sessionful MCP sessions: idle period and cap (default: the settings). */
  readonly sessionIdleMs?: number;
  readonly maxSessions?: number;
}

/**
 * A request must arrive whole within this long: Node's default (300 s) let a client that sends its
 * body a byte at a time hold a connection for minutes (issue 40 measured ≥ 150 s). Node checks
 * every `connectionsCheckingInterval`, so a slow client is answered 408 and closed within 26 s.
 */
export const REQUEST_TIMEOUT_MS = 25_000;
/** The headers' own deadline (Node requires it not to exceed the request's). */
export const HEADERS_TIMEOUT_MS = 20_000;

/** Node's deadlines for receiving a request, checked every second. */
function deadlinesOf(requestTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs),
  };
}

export interface GflowHttpServer {
  /** The origin (http://host:port); the MCP endpoint is `${url}${path}`. */
  readonly url: string;
  readonly path: string;
  /** The live flow registry (undefined when flows are off). */
  readonly flows: FlowRegistry | undefined;
  readonly host: string;
  readonly port: number;
  readonly app: GflowHttpApp;
  /** Graceful shutdown: stop accepting, close sessions, cancel running jobs (gflow.close()). */
  close(): Promise<void>;
  readonly closed: Promise<void>;
}

/**
 * Starts `gflow serve`. Refuses (ConfigurationError, exit 11) to bind anything
 * but literally 127.0.0.1 or ::1 without a token, and warns when a loopback
 * daemon runs unauthenticated.
 */
export async function startGflowHttpServer(
  gflow: GflowLike,
  options: StartGflowHttpServerOptions = {},
): Promise<GflowHttpServer> {
  const settings = gflow.settings as { daemonToken?: string; daemonPort?: number };
  const config = readMcpServerConfig(gflow.layout.configToml);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? config.port ?? settings.daemonPort ?? 8000;
  const token =
    options.token ??
    settings.daemonToken ??
    (config.credentialsPath ? readCredentialsToken(config.credentialsPath, gflow.layout.home) : undefined);
  const mcpPath = options.path ?? config.path;
  const transport = options.transport ?? 'http';
  const logger = gflow.logger;

  if (!isLoopbackBind(host) && !token) {
    throw new ConfigurationError(
      `Refusing to serve on ${host} without a token: a non-loopback bind exposes your Flow account to the network.`,
      {
        remediationHint:
          'Set GFLOW_DAEMON_TOKEN (at least 16 characters) and send "Authorization: Bearer <token>", or bind --host 127.0.0.1.',
      },
    );
  }
  if (!token)
    logger.warn('http.serve.unauthenticated', {
      host,
      detail: 'No GFLOW_DAEMON_TOKEN: any local process can use this daemon.',
    });
  if (transport === 'sse') {
    logger.warn('http.serve.sse_deprecated', {
      detail: 'The HTTP+SSE transport (/sse, /messages/) is deprecated; prefer Streamable HTTP at /mcp.',
    });
  }

  const ownsFlows = !(options.flows instanceof FlowRegistry) && options.flows !== false;
  const flows =
    options.flows instanceof FlowRegistry
      ? options.flows
      : options.flows === false
        ? undefined
        : openFlowRegistry(gflow, options.flows ?? {});
  const app = createGflowHttpApp(gflow, {
    host,
    port,
    token,
    transport,
    path: mcpPath,
    flows,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.docsDir ? { docsDir: options.docsDir } : {}),
    ...(options.sessionIdleMs === undefined ? {} : { sessionIdleMs: options.sessionIdleMs }),
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
  });
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const serverOptions = deadlinesOf(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
      const s = serve({ fetch: app.app.fetch, hostname: host, port, serverOptions }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    if (ownsFlows) flows?.close();
    await app.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;
  logger.info('http.serve.listening', {
    url: `${url}${mcpPath}`,
    transport,
    flows: flows?.flows().map((f) => f.name) ?? [],
  });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const onSignal = (): void => void close();
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (options.handleSignals) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      if (ownsFlows) flows?.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await stopped;
      await gflow.close();
      logger.info('http.serve.stopped');
      resolveClosed();
    })();
    return closing;
  };
  if (options.handleSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  return { url, path: mcpPath, flows, host, port: address.port, app, close, closed };
}
