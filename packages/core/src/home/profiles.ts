import fs from 'node:fs';
import path from 'node:path';
import { NoDefaultProfileError, NoProfileError, SecurityError } from '@gflow/errors';
import { assertProfileName, isProfileName } from '@gflow/flow-facts';
import type { SettingSource } from '../settings/loadSettings.js';
import { readConfigToml } from './configToml.js';
import { type HomeLayout, PROFILE_DIR_PREFIX } from './homeLayout.js';

/**
 * Profiles are plain names, never paths (the one rule of @gflow/flow-facts, which the catalog
 * and the lease apply too): a name that could reach outside the home is a SecurityError (exit 13),
 * another malformed name a usage error (exit 2); an email address is a plain name.
 */
export function validateProfileName(name: string): string {
  return assertProfileName(name);
}

/** The profile directory, refusing one that resolves outside the home (symlink escape). */
export function profileDirOf(layout: HomeLayout, name: string): string {
  const dir = layout.profileDir(validateProfileName(name));
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return dir;
  }
  const realHome = fs.realpathSync(layout.home);
  if (path.dirname(real) !== realHome) {
    throw new SecurityError('The profile directory resolves outside the gflow home.', {
      extensions: { parameter: 'profile' },
    });
  }
  return dir;
}

/** Names of the profiles present in the home, sorted. */
export function listProfileNames(layout: HomeLayout): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(layout.home, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(
      (e) => e.isDirectory() && e.name.startsWith(PROFILE_DIR_PREFIX) && e.name.length > PROFILE_DIR_PREFIX.length,
    )
    .map((e) => e.name.slice(PROFILE_DIR_PREFIX.length))
    .filter(isProfileName)
    .sort();
}

export type ProfileSource = 'argument' | 'env' | 'config' | 'only-profile';

export interface ResolvedProfile {
  readonly name: string;
  readonly dir: string;
  readonly source: ProfileSource;
}

export interface ResolveProfileOptions {
  /** The flag or tool argument; "default" means "resolve as the CLI does". */
  readonly requested?: string | undefined;
  /** The settings' GFLOW_CLI_PROFILE and where it came from (named when it is no profile). */
  readonly settings?:
    | {
        readonly profile?: string | undefined;
        readonly sources?: { readonly profile?: SettingSource | undefined } | undefined;
      }
    | undefined;
  /** Require the directory to exist (tools that open a browser). */
  readonly mustExist?: boolean;
}

/** Where a profile name that names no profile came from, for the error (nothing for an argument). */
function originOf(layout: HomeLayout, source: ProfileSource, settingSource: SettingSource | undefined): string {
  if (source === 'config') return `default_profile in ${layout.configToml}`;
  if (source !== 'env') return '';
  switch (settingSource) {
    case 'cwd-dotenv':
      return "GFLOW_CLI_PROFILE in the working directory's .env";
    case 'home-dotenv':
      return `GFLOW_CLI_PROFILE in ${layout.dotenv}`;
    case 'flag':
      return '--profile';
    default:
      return 'GFLOW_CLI_PROFILE in the environment';
  }
}

/** What to do about a name that names no profile, by where it came from. */
function remedyOf(source: ProfileSource, name: string, available: readonly string[], origin: string): string {
  const choices = available.join(', ');
  if (source === 'config')
    return available.length
      ? `Run 'gflow auth use <name>' with one of: ${choices}; or 'gflow auth login --profile ${name}'.`
      : `Run 'gflow auth login --profile ${name}', or remove default_profile from config.toml.`;
  if (source === 'env')
    return available.length
      ? `Change ${origin} to one of: ${choices} (or unset it); or run 'gflow auth login --profile ${name}'.`
      : `Run 'gflow auth login --profile ${name}', or unset ${origin}.`;
  return available.length
    ? `Use one of: ${choices}; or run 'gflow auth login --profile ${name}'.`
    : "Run 'gflow auth login' in your local terminal.";
}

/**
 * Resolution order: the argument, then GFLOW_CLI_PROFILE, then
 * `default_profile` in config.toml, then the only profile present; otherwise
 * exit 2 listing the profiles. A name that names no profile is exit 2 saying
 * where the name came from (GFLOW_CLI_PROFILE in the environment or a .env,
 * default_profile in config.toml).
 */
export function resolveProfile(layout: HomeLayout, options: ResolveProfileOptions = {}): ResolvedProfile {
  const requested = options.requested && options.requested !== 'default' ? options.requested : undefined;
  const mustExist = options.mustExist ?? true;
  const available = listProfileNames(layout);
  const pick = (name: string, source: ProfileSource): ResolvedProfile => {
    const dir = profileDirOf(layout, name);
    if (mustExist && !fs.existsSync(dir)) {
      const origin = originOf(layout, source, options.settings?.sources?.profile);
      throw new NoProfileError(`Profile "${name}" does not exist${origin ? ` (from ${origin})` : ''}.`, {
        extensions: {
          available_profiles: available,
          ...(origin ? { profile_source: origin } : {}),
        },
        remediationHint: remedyOf(source, name, available, origin),
      });
    }
    return { name, dir, source };
  };
  if (requested) return pick(requested, 'argument');
  if (options.settings?.profile) return pick(options.settings.profile, 'env');
  const configured = readConfigToml(layout.configToml).default_profile;
  if (typeof configured === 'string' && configured) return pick(configured, 'config');
  if (available.length === 1) return pick(available[0] as string, 'only-profile');
  if (available.length === 0) {
    throw new NoProfileError('No gflow profile exists yet.', { extensions: { available_profiles: [] } });
  }
  throw new NoDefaultProfileError(`Several profiles exist and none is the default: ${available.join(', ')}.`, {
    extensions: { available_profiles: available },
  });
}
