// The profiles of a gflow home and its config.toml switches, as operations: `gflow auth list|use|
// logout`, `gflow telemetry` and a library user run the same code. Local files only; no browser.
import fs from 'node:fs';
import path from 'node:path';
import { NoProfileError } from '@gflow/errors';
import { readProfileMarkersSync } from '@gflow/flow-facts';
import { z } from 'zod';
import { readConfigToml, setUsageRecording, usageRecordingEnabled, writeConfigToml } from '../home/configToml.js';
import type { HomeLayout } from '../home/homeLayout.js';
import { listProfileNames, resolveProfile, validateProfileName } from '../home/profiles.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { profileRow } from './catalogSchemas.js';
import { defineOperation } from './operation.js';

const COOKIE_FILES = [path.join('Default', 'Network', 'Cookies'), path.join('Default', 'Cookies'), 'Cookies'];

/** The default profile as gflow resolves it without an argument: GFLOW_CLI_PROFILE, then config.toml, then the only profile. */
export function defaultProfileName(settingProfile: string | undefined, layout: HomeLayout): string | undefined {
  if (settingProfile) return settingProfile;
  const fromConfig = readConfigToml(layout.configToml).default_profile;
  if (typeof fromConfig === 'string' && fromConfig) return fromConfig;
  const names = listProfileNames(layout);
  return names.length === 1 ? names[0] : undefined;
}

/** When the profile was last used: the catalog's last activity, else its directory's mtime. */
function lastUsed(runtime: RuntimeServices, name: string, dir: string): string | null {
  try {
    if (fs.existsSync(runtime.settings.dbPath)) {
      const row = runtime.catalog.profiles.list().find((p) => p.name === name);
      if (row) return row.lastSeenAt;
    }
  } catch {
    // The catalog is optional here: fall back to the directory's mtime.
  }
  try {
    return fs.statSync(dir).mtime.toISOString();
  } catch {
    return null;
  }
}

export const listProfiles = defineOperation({
  name: 'listProfiles',
  mcpName: 'gflow_list_profiles',
  title: 'List profiles',
  description: 'The profiles of this gflow home: Google account, default, cookies present, last used.',
  kind: 'read',
  usesBrowser: false,
  surfaces: ['cli', 'library'],
  input: z.object({}),
  output: z.strictObject({ status: z.literal('ok'), profiles: z.array(profileRow) }),
  handler: async (_input, { runtime }) => {
    const fallback = defaultProfileName(runtime.settings.profile, runtime.layout);
    return {
      status: 'ok' as const,
      profiles: listProfileNames(runtime.layout).map((name) => {
        const dir = runtime.layout.profileDir(name);
        return {
          name,
          google_account: readProfileMarkersSync(dir).account,
          is_default: name === fallback,
          cookies_present: COOKIE_FILES.some((f) => fs.existsSync(path.join(dir, f))),
          last_used_at: lastUsed(runtime, name, dir),
          profile_dir: dir,
        };
      }),
    };
  },
});

export const useProfile = defineOperation({
  name: 'useProfile',
  mcpName: 'gflow_use_profile',
  title: 'Make a profile the default',
  description: 'Writes default_profile to config.toml; the profile must exist.',
  kind: 'mutate',
  usesBrowser: false,
  usesCatalog: false,
  surfaces: ['cli', 'library'],
  input: z.object({ name: z.string().trim().min(1) }),
  output: z.strictObject({
    status: z.literal('ok'),
    default_profile: z.string().min(1),
    config_path: z.string().min(1),
  }),
  handler: async (input, { runtime }) => {
    const name = validateProfileName(input.name);
    const available = listProfileNames(runtime.layout);
    if (!available.includes(name)) {
      throw new NoProfileError(`Profile "${name}" does not exist.`, {
        extensions: { available_profiles: available },
        remediationHint: available.length ? `Use one of: ${available.join(', ')}.` : "Run 'gflow auth login' first.",
      });
    }
    const config = readConfigToml(runtime.layout.configToml);
    writeConfigToml(runtime.layout.configToml, { ...config, default_profile: name });
    return { status: 'ok' as const, default_profile: name, config_path: runtime.layout.configToml };
  },
});

export const deleteProfile = defineOperation({
  name: 'deleteProfile',
  mcpName: 'gflow_delete_profile',
  title: 'Delete a profile',
  description:
    "Deletes a profile directory (its saved Google session) and drops it as config.toml's default. The caller confirms first.",
  kind: 'mutate',
  usesBrowser: false,
  usesCatalog: false,
  surfaces: ['cli', 'library'],
  input: z.object({ profile: z.string().trim().min(1).optional() }),
  output: z.strictObject({ status: z.literal('ok'), profile: z.string().min(1), deleted: z.string().min(1) }),
  handler: async (input, { runtime }) => {
    const profile = resolveProfile(runtime.layout, {
      requested: input.profile,
      settings: runtime.settings,
    });
    fs.rmSync(profile.dir, { recursive: true, force: true });
    const config = readConfigToml(runtime.layout.configToml);
    if (config.default_profile === profile.name) {
      const { default_profile: _dropped, ...rest } = config;
      writeConfigToml(runtime.layout.configToml, rest);
    }
    return { status: 'ok' as const, profile: profile.name, deleted: profile.dir };
  },
});

export const telemetry = defineOperation({
  name: 'telemetry',
  mcpName: 'gflow_telemetry',
  title: 'Local usage recording',
  description:
    'Says whether gflow records which commands and tools ran (in the local catalog only; nothing is uploaded), and turns it on or off.',
  kind: 'mutate',
  usesBrowser: false,
  usesCatalog: false,
  surfaces: ['cli', 'library'],
  input: z.object({ set: z.enum(['on', 'off']).optional() }),
  output: z.strictObject({
    status: z.literal('ok'),
    recording: z.enum(['on', 'off']),
    upload: z.literal(false),
    config_path: z.string().min(1),
  }),
  handler: async (input, { runtime }) => {
    const file = runtime.layout.configToml;
    if (input.set !== undefined) setUsageRecording(file, input.set === 'on');
    return {
      status: 'ok' as const,
      recording: usageRecordingEnabled(file) ? ('on' as const) : ('off' as const),
      upload: false as const,
      config_path: file,
    };
  },
});
