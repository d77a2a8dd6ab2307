import { chromium } from 'playwright-core';
import { BrowserEngineUnavailableError, ConfigurationError, ProfileLockedError } from '@gflow/errors';
import type { FlowHostSetting } from '../flow/hosts.js';
import { type DriverLogger, SILENT_LOGGER } from '../util/logger.js';
import { FlowSession, type SessionTimeouts } from './flowSession.js';
import { HIDE_WEBDRIVER_SCRIPT, type LaunchSettings, buildLaunchOptions } from './launchOptions.js';

export interface OpenFlowSessionOptions extends LaunchSettings {
  /** GFLOW_CLI_FLOW_HOST routing: `labs.google` is the kill switch (a migrated page → 36). */
  readonly flowHost?: FlowHostSetting;
  readonly timeouts?: SessionTimeouts;
  readonly logger?: DriverLogger;
  /** Snapshot a failed operation's page for an incident bundle (default true; GFLOW_CLI_INCIDENT_CAPTURE). */
  readonly incidentCapture?: boolean;
}

/**
 * Launches a persistent context on the profile dir with the anti-automation settings of
 * flow-wire §2 and returns a session. A missing browser binary → BrowserEngineUnavailableError (24).
 */
export async function openFlowSession(options: OpenFlowSessionOptions): Promise<FlowSession> {
  const logger = options.logger ?? SILENT_LOGGER;
  if (options.profileDir.trim() === '') throw new ConfigurationError('No profile directory was given.');
  const launch = buildLaunchOptions(options);
  let context;
  try {
    context = await chromium.launchPersistentContext(options.profileDir, launch);
  } catch (error) {
    throw launchError(error, options);
  }
  await context.addInitScript(HIDE_WEBDRIVER_SCRIPT);
  logger.info('browser session opened', { channel: options.channel ?? null, headless: options.headless });
  return new FlowSession(context, {
    logger,
    flowHost: options.flowHost ?? 'auto',
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    ...(options.incidentCapture === undefined ? {} : { incidentCapture: options.incidentCapture }),
  });
}

function launchError(error: unknown, options: OpenFlowSessionOptions): Error {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? message;
  if (
    /ProcessSingleton|SingletonLock|profile (directory )?is already in use|user data directory is already in use/i.test(
      message,
    )
  ) {
    return new ProfileLockedError('Another browser is using this profile (Chrome SingletonLock).', { cause: error });
  }
  if (
    /Executable doesn't exist|ENOENT|no such file|spawn .* (ENOENT|EACCES)|Chromium distribution '.*' is not found|is not found at/i.test(
      message,
    )
  ) {
    const which =
      options.channel === 'chrome'
        ? 'the system Chrome (channel "chrome")'
        : options.executablePath !== undefined
          ? `the browser at the configured executable path`
          : 'a Chromium build';
    return new BrowserEngineUnavailableError(`Could not start ${which}: ${first}`, { cause: error });
  }
  return new BrowserEngineUnavailableError(`The browser failed to launch: ${first}`, { cause: error });
}
