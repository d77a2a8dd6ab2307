import fs from 'node:fs';
import path from 'node:path';
import { BrowserEngineUnavailableError } from '@gflow/errors';
import { profileNameFromEmail } from '@gflow/flow-facts';
import { z } from 'zod';
import { listProfileNames, resolveProfile } from '../home/profiles.js';
import { findBrowserExecutable } from '../jobs/browserLaunch.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { defineOperation } from './operation.js';
import { profileParam } from './generationSchemas.js';

/** Chrome installed on this machine (the `chrome` login strategy needs it). */
function chromeAvailable(): boolean {
  const candidates =
    process.platform === 'darwin'
      ? ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']
      : process.platform === 'win32'
        ? [
            path.join(
              process.env['PROGRAMFILES'] ?? 'C:\\Program Files',
              'Google',
              'Chrome',
              'Application',
              'chrome.exe',
            ),
          ]
        : ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'];
  return candidates.some((c) => fs.existsSync(c));
}

function launchExtras(runtime: RuntimeServices): { extraArgs: string[]; ignoreHTTPSErrors: boolean } {
  return {
    extraArgs: [...runtime.settings.browserArgs, ...(runtime.browserOverrides.extraArgs ?? [])],
    ignoreHTTPSErrors: runtime.browserOverrides.ignoreHTTPSErrors ?? false,
  };
}

export const authLogin = defineOperation({
  name: 'authLogin',
  mcpName: 'gflow_auth_login',
  title: 'Sign in',
  description:
    'Opens a browser on the profile for a human to sign in to Google Flow, then records the account. Interactive: CLI and library only.',
  kind: 'mutate',
  usesBrowser: true,
  surfaces: ['cli', 'library'],
  input: z.object({
    profile: profileParam,
    browser: z
      .enum(['auto', 'chrome', 'internal'])
      .optional()
      .describe(
        'auto (default: Chrome when installed), chrome (the system Chrome, as a plain window), internal (a gflow-driven Chromium).',
      ),
    account: z.email().optional().describe('The Google account expected; a different one is refused (exit 38).'),
  }),
  output: z.looseObject({ status: z.literal('authenticated'), profile: z.string(), user_email: z.string() }),
  handler: async (input, { runtime, signal }) => {
    const requested = input.profile === 'default' ? (runtime.settings.profile ?? 'default') : input.profile;
    const profile = resolveProfile(runtime.layout, { requested, mustExist: false });
    fs.mkdirSync(profile.dir, { recursive: true, mode: 0o700 });
    const preference = input.browser ?? runtime.settings.authBrowser;
    const strategy =
      preference === 'auto'
        ? chromeAvailable() && !runtime.browserOverrides.sandbox
          ? 'chrome'
          : 'internal'
        : preference;
    const executablePath = findBrowserExecutable(runtime.settings);
    if (strategy === 'internal' && !executablePath)
      throw new BrowserEngineUnavailableError('No Chrome or Chromium was found for the sign-in window.');
    const { loginWithBrowser } = await import('@gflow/driver');
    const autofill = runtime.browserOverrides.autofillLogin;
    const { email } = await runtime.sessions.withProfileExclusive(profile, { signal }, () =>
      loginWithBrowser({
        profileDir: profile.dir,
        strategy,
        ...(executablePath ? { executablePath } : {}),
        ...launchExtras(runtime),
        timeoutMs: runtime.settings.authLoginTimeout * 1000,
        ...(input.account ? { expectedAccount: input.account } : {}),
        ...(autofill ? { autofill, headless: true } : {}),
        logger: runtime.logger,
        signal,
      }),
    );
    let name = profile.name;
    if (name === 'default' && listProfileNames(runtime.layout).length === 1) {
      const renamed = profileNameFromEmail(email);
      if (renamed && !fs.existsSync(runtime.layout.profileDir(renamed))) {
        fs.renameSync(profile.dir, runtime.layout.profileDir(renamed));
        name = renamed;
      }
    }
    runtime.catalog.profiles.touch(name, runtime.layout.profileDir(name));
    return { status: 'authenticated' as const, profile: name, user_email: email };
  },
});
