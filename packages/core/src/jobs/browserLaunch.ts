import fs from 'node:fs';
import path from 'node:path';
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
  /** Fill the sign-in form for this account (the sandbox's simulated Google sign-in only). */
  readonly autofillLogin?: { readonly email: string; readonly password?: string };
}

const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: [
    path.join(process.env['PROGRAMFILES'] ?? 'C:\\Program Files', 'Google', 'Chrome', 'Application', 'chrome.exe'),
    path.join(process.env['LOCALAPPDATA'] ?? 'C:\\', 'Google', 'Chrome', 'Application', 'chrome.exe'),
  ],
};

/** The configured browser binary, else the first system Chrome/Chromium found. */
export function findBrowserExecutable(settings: Pick<ResolvedSettings, 'browserExecutable'>): string | undefined {
  if (settings.browserExecutable) return fs.existsSync(settings.browserExecutable) ? settings.browserExecutable : undefined;
  return (SYSTEM_BROWSERS[process.platform] ?? []).find((candidate) => fs.existsSync(candidate));
}

export const BROWSER_STRATEGY_FILE = '.gflow_browser_strategy';
export const ACCOUNT_FILE = '.gflow_account';

/** `chrome` when the profile was signed in with the system Chrome (its cookies are Chrome's). */
export function browserStrategyOf(profileDir: string): 'chrome' | 'internal' | undefined {
  try {
    const value = fs.readFileSync(path.join(profileDir, BROWSER_STRATEGY_FILE), 'utf8').trim();
    return value === 'chrome' || value === 'internal' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function accountOf(profileDir: string): string | undefined {
  try {
    const value = fs.readFileSync(path.join(profileDir, ACCOUNT_FILE), 'utf8').trim();
    return value || undefined;
  } catch {
    return undefined;
  }
}
