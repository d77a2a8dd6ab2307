import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { ConfigurationError } from '@gflow/errors';
import type { GflowLike } from '@gflow/mcp';
import { createGflowHttpApp, type GflowHttpApp, type HttpTransportKind } from './createGflowHttpApp.js';
import { isLoopbackBind } from './loopback.js';

export interface StartGflowHttpServerOptions {
  readonly host?: string;
  /** 0 picks a free port. Default: the daemonPort setting (8000). */
  readonly port?: number;
  /** Default: the daemonToken setting (GFLOW_DAEMON_TOKEN / GFLOW_CLI_DAEMON_TOKEN). */
  readonly token?: string;
  readonly transport?: HttpTransportKind;
  readonly allowedHosts?: readonly string[];
  readonly docsDir?: string;
  /** Also stop on SIGINT/SIGTERM (the CLI entry sets it). */
  readonly handleSignals?: boolean;
}

export interface GflowHttpServer {
  readonly url: string;
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
export async function startGflowHttpServer(gflow: GflowLike, options: StartGflowHttpServerOptions = {}): Promise<GflowHttpServer> {
  const settings = gflow.settings as { daemonToken?: string; daemonPort?: number };
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? settings.daemonPort ?? 8000;
  const token = options.token ?? settings.daemonToken;
  const transport = options.transport ?? 'http';
  const logger = gflow.logger;

  if (!isLoopbackBind(host) && !token) {
    throw new ConfigurationError(`Refusing to serve on ${host} without a token: a non-loopback bind exposes your Flow account to the network.`, {
      remediationHint: 'Set GFLOW_DAEMON_TOKEN (at least 16 characters) and send "Authorization: Bearer <token>", or bind --host 127.0.0.1.',
    });
  }
  if (!token) logger.warn('http.serve.unauthenticated', { host, detail: 'No GFLOW_DAEMON_TOKEN: any local process can use this daemon.' });
  if (transport === 'sse') {
    logger.warn('http.serve.sse_deprecated', { detail: 'The HTTP+SSE transport (/sse, /messages/) is deprecated; prefer Streamable HTTP at /mcp.' });
  }

  const app = createGflowHttpApp(gflow, {
    host,
    port,
    token,
    transport,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.docsDir ? { docsDir: options.docsDir } : {}),
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.app.fetch, hostname: host, port }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;
  logger.info('http.serve.listening', { url: `${url}/mcp`, transport });

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
  return { url, host, port: address.port, app, close, closed };
}
