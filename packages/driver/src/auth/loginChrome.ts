import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { BrowserEngineUnavailableError } from '@gflow/errors';
import { cancelled } from '../util/abort.js';
import { SILENT_LOGGER } from '../util/logger.js';
import { chromeLoginArgs, defaultChromeExecutable } from './chromeLaunch.js';
import type { LoginOptions, LoginResult } from './loginTypes.js';
import { probeSession } from './probeSession.js';
import { finishLogin, loginTimeout } from './verifyLogin.js';

type Ended = { kind: 'exit' } | { kind: 'timeout' } | { kind: 'abort' } | { kind: 'error'; error: Error };

/**
 * The 'chrome' strategy: real Chrome (or the configured Chromium) as a plain subprocess on the
 * profile, no debugging port. The human signs in and closes the window; then the session is
 * verified headlessly and the markers are written. Past the timeout the browser is stopped and
 * AuthLoginTimeoutError (12) is raised.
 */
export async function loginChrome(options: LoginOptions): Promise<LoginResult> {
  const logger = options.logger ?? SILENT_LOGGER;
  await mkdir(options.profileDir, { recursive: true, mode: 0o700 });
  const executable = options.executablePath ?? defaultChromeExecutable(process.platform, process.env);
  const args = chromeLoginArgs(options.profileDir, {
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
    ...(options.ignoreHTTPSErrors === undefined ? {} : { ignoreHTTPSErrors: options.ignoreHTTPSErrors }),
  });
  const child = spawn(executable, args, { stdio: 'ignore', detached: false });
  logger.info('login: Chrome started; waiting for the window to close', { pid: child.pid });
  const ended = await new Promise<Ended>((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout' }), options.timeoutMs);
    const onAbort = (): void => resolve({ kind: 'abort' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('exit', () => resolve({ kind: 'exit' }));
    child.once('error', (error) => resolve({ kind: 'error', error }));
    child.once('close', () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    });
  });
  if (ended.kind !== 'exit') await stop(child);
  if (ended.kind === 'error')
    throw new BrowserEngineUnavailableError(`Could not start ${executable}: ${ended.error.message}`, {
      cause: ended.error,
    });
  if (ended.kind === 'abort') throw cancelled(options.signal, 'the login');
  if (ended.kind === 'timeout') throw loginTimeout(options.timeoutMs);
  const probe = await probeSession({
    profileDir: options.profileDir,
    skipMarkerCheck: true,
    ...(options.executablePath === undefined
      ? { channel: 'chrome' as const }
      : { executablePath: options.executablePath }),
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
    ...(options.ignoreHTTPSErrors === undefined ? {} : { ignoreHTTPSErrors: options.ignoreHTTPSErrors }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return finishLogin(options.profileDir, 'chrome', probe, options.expectedAccount);
}

async function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}
