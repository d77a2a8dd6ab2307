import fs from 'node:fs';
import path from 'node:path';
import { NoDefaultProfileError, NoProfileError, SecurityError } from '@gflow/errors';
import { assertProfileName, isProfileName } from '@gflow/flow-facts';
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
  /** GFLOW_CLI_PROFILE from settings. */
  readonly settingProfile?: string | undefined;
  /** Require the directory to exist (tools that open a browser). */
  readonly mustExist?: boolean;
}

/**
 * Resolution order: the argument, then GFLOW_CLI_PROFILE, then
 * `default_profile` in config.toml, then the only profile present; otherwise
 * exit 2 listing the profiles.
 */
export function resolveProfile(layout: HomeLayout, options: ResolveProfileOptions = {}): ResolvedProfile {
  const requested = options.requested && options.requested !== 'default' ? options.requested : undefined;
  const mustExist = options.mustExist ?? true;
  const available = listProfileNames(layout);
  const pick = (name: string, source: ProfileSource): ResolvedProfile => {
    const dir = profileDirOf(layout, name);
    if (mustExist && !fs.existsSync(dir)) {
      throw new NoProfileError(`Profile "${name}" does not exist.`, {
        extensions: { available_profiles: available },
        remediationHint: available.length
          ? `Use one of: ${available.join(', ')}; or run 'gflow auth login --profile ${name}'.`
          : "Run 'gflow auth login' in your local terminal.",
      });
    }
    return { name, dir, source };
  };
  if (requested) return pick(requested, 'argument');
  if (options.settingProfile) return pick(options.settingProfile, 'env');
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
