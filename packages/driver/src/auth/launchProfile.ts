import { mkdir } from 'node:fs/promises';
import { type BrowserContext, chromium } from 'playwright-core';
import { BrowserEngineUnavailableError, CookieStoreUnreadableError } from '@gflow/errors';
import { HIDE_WEBDRIVER_SCRIPT, buildLaunchOptions } from '../session/launchOptions.js';

/** How part 2 opens a profile (the same flags as a generation context, flow-wire §2). */
export interface ProfileLaunch {
  readonly profileDir: string;
  readonly executablePath?: string;
  readonly channel?: 'chrome';
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly headless?: boolean;
  readonly locale?: string;
}

/**
 * The headless launch of a probe or a renewal: the Chrome channel when the profile was signed in
 * with the system Chrome (its marker says so) and no executable was named.
 */
export function headlessLaunchFor(
  options: Pick<ProfileLaunch, 'profileDir' | 'executablePath' | 'channel' | 'extraArgs' | 'ignoreHTTPSErrors'>,
  strategy: string | null,
): ProfileLaunch {
  const channel =
    options.channel ?? (strategy === 'chrome' && options.executablePath === undefined ? 'chrome' : undefined);
  return {
    profileDir: options.profileDir,
    headless: true,
    ...(channel === undefined ? {} : { channel }),
    ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
    ...(options.ignoreHTTPSErrors === undefined ? {} : { ignoreHTTPSErrors: options.ignoreHTTPSErrors }),
  };
}

const PROFILE_IN_USE =
  /ProcessSingleton|SingletonLock|profile (?:appears to be )?in use|user data directory is already in use/i;

/**
 * Launches a persistent context on the profile. A profile another Chrome holds is a
 * CookieStoreUnreadableError (close that window); a browser that cannot start is
 * BrowserEngineUnavailableError.
 */
export async function launchProfile(launch: ProfileLaunch): Promise<BrowserContext> {
  await mkdir(launch.profileDir, { recursive: true, mode: 0o700 });
  const options = buildLaunchOptions({
    profileDir: launch.profileDir,
    headless: launch.headless ?? true,
    ...(launch.channel === undefined ? {} : { channel: launch.channel }),
    ...(launch.executablePath === undefined ? {} : { executablePath: launch.executablePath }),
    ...(launch.extraArgs === undefined ? {} : { extraArgs: launch.extraArgs }),
    ...(launch.ignoreHTTPSErrors === undefined ? {} : { ignoreHTTPSErrors: launch.ignoreHTTPSErrors }),
    ...(launch.locale === undefined ? {} : { locale: launch.locale }),
  });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(launch.profileDir, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (PROFILE_IN_USE.test(message)) {
      throw new CookieStoreUnreadableError(
        'The profile is held by another browser window, so its cookies cannot be read.',
        { cause: error },
      );
    }
    throw new BrowserEngineUnavailableError(
      `The browser could not start on this profile: ${message.split('\n')[0] ?? message}`,
      { cause: error },
    );
  }
  await context.addInitScript(HIDE_WEBDRIVER_SCRIPT);
  return context;
}
