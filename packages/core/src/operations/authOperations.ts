import fs from 'node:fs';
import path from 'node:path';
import { BrowserEngineUnavailableError } from '@gflow/errors';
import { profileNameFromEmail } from '@gflow/flow-facts';
import { z } from 'zod';
import { readConfigToml } from '../home/configToml.js';
import type { HomeLayout } from '../home/homeLayout.js';
import { type ResolvedProfile, listProfileNames, profileDirOf, resolveProfile } from '../home/profiles.js';
import { findBrowserExecutable } from '../jobs/browserLaunch.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { defineOperation } from './operation.js';
import { profileParam } from '../schemas/params.js';

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

/**
 * The profile a login signs in: the one named (the argument, else GFLOW_CLI_PROFILE), else the
 * default one (config.toml, the only profile); in a home with no profile and no default yet, a
 * new "default" profile (renamed after the account once it is signed in).
 */
export function loginProfile(layout: HomeLayout, named: string | undefined): ResolvedProfile {
  const configured = readConfigToml(layout.configToml).default_profile;
  if (!named && listProfileNames(layout).length === 0 && !(typeof configured === 'string' && configured))
    return { name: 'default', dir: profileDirOf(layout, 'default'), source: 'argument' };
  return resolveProfile(layout, { requested: named, mustExist: false });
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
    const named = input.profile === 'default' ? runtime.settings.profile : input.profile;
    const profile = loginProfile(runtime.layout, named);
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
    const { email } = await runtime.sessions.withProfileExclusive(profile, { signal }, async () => {
      // A login that fails (a refused account, a timeout, Ctrl-C) leaves no profile it made behind.
      const made = !fs.existsSync(profile.dir);
      fs.mkdirSync(profile.dir, { recursive: true, mode: 0o700 });
      try {
        return await loginWithBrowser({
          profileDir: profile.dir,
          strategy,
          ...(executablePath ? { executablePath } : {}),
          ...launchExtras(runtime),
          timeoutMs: runtime.settings.authLoginTimeout * 1000,
          ...(input.account ? { expectedAccount: input.account } : {}),
          ...(autofill ? { autofill: await autofillFor(autofill, input.account), headless: true } : {}),
          logger: runtime.logger,
          signal,
        });
      } catch (error) {
        if (made) fs.rmSync(profile.dir, { recursive: true, force: true });
        throw error;
      }
    });
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

/**
 * Who the sandbox's simulated person signs in as: the account the login asked for when the
 * simulated Google has it (a fleet's several accounts), else the sandbox's own — so a login that
 * asks for an account nobody there has is refused for the other account (exit 38), as with Google.
 */
async function autofillFor(
  autofill: NonNullable<RuntimeServices['browserOverrides']['autofillLogin']>,
  asked: string | undefined,
): Promise<{ email: string; password?: string }> {
  const { email, password } = autofill;
  const own = { email, ...(password === undefined ? {} : { password }) };
  if (asked === undefined || asked === email || !(await autofill.knows?.(asked))) return own;
  return { ...own, email: asked };
}
