import fs from 'node:fs';
import path from 'node:path';
import { type LoginStrategy, loginStrategyOf, readProfileMarkersSync } from '@gflow/flow-facts';
import type { ResolvedSettings } from '../settings/loadSettings.js';

/** Launch options the runtime adds on top of settings (the sandbox maps Google's hosts to the simulator). */
export interface BrowserOverrides {
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly headless?: boolean;
  /** A proxy for the browser when GFLOW_CLI_BROWSER_PROXY is unset (the sandbox's simulator proxy). */
  readonly proxy?: string;
  /** The browser talks to the built-in simulator, not Google (results say so). */
  readonly sandbox?: boolean;
  /**
   * Fill the sign-in form for this account (the sandbox's simulated Google sign-in only): the person
   * at the keyboard. `knows` says whether the simulated Google has another account the login asked
   * for (a fleet's several accounts); that one is typed instead, any other asked for is refused (38).
   */
  readonly autofillLogin?: {
    readonly email: string;
    readonly password?: string;
    readonly knows?: (email: string) => Promise<boolean>;
  };
}

const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    path.join(process.env['PROGRAMFILES'] ?? 'C:\\Program Files', 'Google', 'Chrome', 'Application', 'chrome.exe'),
    path.join(process.env['LOCALAPPDATA'] ?? 'C:\\', 'Google', 'Chrome', 'Application', 'chrome.exe'),
  ],
};

/** Browser names looked up on PATH when no usual install location has one. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/**
 * The browser gflow launches, and where it was found: the configured binary (GFLOW_CLI_BROWSER_EXECUTABLE;
 * none when it does not exist), else the first Chrome/Chromium in the usual install locations, else
 * on PATH. The one finder: the session pool launches what it says and `gflow doctor` reports it.
 */
export function locateBrowser(
  settings: Pick<ResolvedSettings, 'browserExecutable'>,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): { readonly path: string | undefined; readonly source: 'setting' | 'system' | 'PATH' | 'none' } {
  if (settings.browserExecutable)
    return {
      path: fs.existsSync(settings.browserExecutable) ? settings.browserExecutable : undefined,
      source: 'setting',
    };
  const fixed = (SYSTEM_BROWSERS[platform] ?? []).find((candidate) => fs.existsSync(candidate));
  if (fixed) return { path: fixed, source: 'system' };
  const exts = platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (env['PATH'] ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        if (fs.existsSync(candidate)) return { path: candidate, source: 'PATH' };
      }
    }
  }
  return { path: undefined, source: 'none' };
}

/** The browser binary gflow launches (locateBrowser), or undefined. */
export function findBrowserExecutable(settings: Pick<ResolvedSettings, 'browserExecutable'>): string | undefined {
  return locateBrowser(settings).path;
}

/** `chrome` when the profile was signed in with the system Chrome (its cookies are Chrome's). */
export function browserStrategyOf(profileDir: string): LoginStrategy | undefined {
  return loginStrategyOf(readProfileMarkersSync(profileDir).strategy);
}
