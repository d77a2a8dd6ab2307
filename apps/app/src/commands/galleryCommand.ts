import { spawn } from 'node:child_process';
import { BadParameterError } from '@gflow/errors';
import { defineLeaf, flag, type CommandDef } from '@gflow/cli';

/** How long the probe of an already running daemon may take. */
const PROBE_TIMEOUT_MS = 1500;

interface Health {
  readonly service?: unknown;
  readonly gallery?: unknown;
  readonly home_id?: unknown;
}

/** The gallery of a daemon already listening on 127.0.0.1:port for this home, or undefined. */
async function runningGallery(port: number, homeId: string, token: string | undefined): Promise<string | undefined> {
  const origin = `http://127.0.0.1:${port}`;
  try {
    const response = await fetch(`${origin}/gallery/health`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    if (!response.ok) return undefined;
    const health = (await response.json()) as Health;
    return health.service === 'gflow' && health.gallery === true && health.home_id === homeId ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** A one-time login path from a running daemon (it needs the token). */
async function remoteLoginPath(origin: string, token: string): Promise<string> {
  const response = await fetch(`${origin}/gallery/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS * 2),
  });
  const body = (await response.json().catch(() => ({}))) as { login_path?: unknown };
  if (!response.ok || typeof body.login_path !== 'string')
    throw new BadParameterError(`The daemon at ${origin} refused a login link (HTTP ${response.status}).`);
  return body.login_path;
}

/** The platform's "open this URL" command, or undefined where there is no desktop to open it on. */
export function browserOpener(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): readonly string[] | undefined {
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url];
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return undefined;
  return ['xdg-open', url];
}

/** Opens the default browser; false when it could not be started. */
function openBrowser(url: string): Promise<boolean> {
  const command = browserOpener(url);
  if (!command) return Promise.resolve(false);
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/**
 * `gflow gallery`: the gallery in the default browser. It reuses a daemon of this home already
 * listening on the port, else serves one on loopback itself until Ctrl-C. With a token it opens a
 * one-time login URL (the browser then holds an HttpOnly session cookie).
 */
export const galleryCommand: CommandDef = defineLeaf({
  name: 'gallery',
  description:
    'Open the gallery (projects, media, failures, running tasks) in the browser; serves it on 127.0.0.1 unless a gflow serve of this home already does.',
  surface: 'http',
  json: false,
  handlesInterrupt: true,
  flags: () => [
    flag({
      key: 'port',
      kind: 'number',
      valueHint: 'PORT',
      description:
        'Port to look for a running daemon on and to serve on (default GFLOW_DAEMON_PORT, else 8000; 0 picks a free one).',
    }),
    flag({
      key: 'open',
      kind: 'boolean',
      defaultValue: true,
      description: 'Open the default browser (--no-open only prints the URL).',
    }),
  ],
  examples: ['gflow gallery', 'gflow gallery --sandbox', 'gflow gallery --port 8765 --no-open'],
  async run(ctx, values) {
    const gflow = await ctx.gflow();
    const port = typeof values['port'] === 'number' ? values['port'] : gflow.settings.daemonPort;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new BadParameterError(`--port must be an integer 0–65535; got ${JSON.stringify(values['port'])}.`, {
        extensions: { parameter: 'port' },
      });
    }
    const { homeIdOf, startGflowHttpServer } = await import('@gflow/http');
    const token = gflow.settings.daemonToken;
    const reused = port === 0 ? undefined : await runningGallery(port, homeIdOf(gflow.layout.home), token);
    let server: Awaited<ReturnType<typeof startGflowHttpServer>> | undefined;
    let origin = reused;
    if (!origin) {
      const start = (at: number) =>
        startGflowHttpServer(gflow, { host: '127.0.0.1', port: at, handleSignals: false, flows: false });
      server = await start(port).catch((error: unknown) => {
        // The port is taken by something else (another home's daemon, another program): a free one.
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && port !== 0) return start(0);
        throw error;
      });
      origin = server.url;
    }
    const loginPath = token ? (server ? server.app.mintLoginPath() : await remoteLoginPath(origin, token)) : undefined;
    const url = `${origin}${loginPath ?? '/'}`;
    ctx.io.stdout.write(`${url}\n`);
    const opened = values['open'] === false ? false : await openBrowser(url);
    ctx.io.stderr.write(
      `gflow gallery: ${opened ? 'opened' : 'open'} ${url}${loginPath ? ' (a one-time login link)' : ''}${
        server ? '; serving until Ctrl-C.' : ` (the gflow serve already running on port ${port}).`
      }\n`,
    );
    if (!server) return undefined;
    const running = server;
    const stop = (): void => void running.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    await running.closed;
    ctx.signal.removeEventListener('abort', stop);
    return undefined;
  },
});
