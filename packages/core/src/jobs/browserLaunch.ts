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

/** `chrome` when the profile was signed in with the system Chrome (its cookies are Chrome's). */
export function browserStrategyOf(profileDir: string): LoginStrategy | undefined {
  return loginStrategyOf(readProfileMarkersSync(profileDir).strategy);
}
