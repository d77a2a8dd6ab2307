import fs from 'node:fs';
import path from 'node:path';
import type { Gflow } from '@gflow/core';
import { listProfileNames, readConfigToml, readProfileMarkersSync } from '@gflow/core';

export interface ProfileRowView {
  readonly name: string;
  readonly google_account: string | null;
  readonly is_default: boolean;
  readonly cookies_present: boolean;
  readonly last_used_at: string | null;
  readonly profile_dir: string;
}

const COOKIE_FILES = [path.join('Default', 'Network', 'Cookies'), path.join('Default', 'Cookies'), 'Cookies'];

function lastUsed(gflow: Gflow, name: string, dir: string): string | null {
  try {
    if (fs.existsSync(gflow.settings.dbPath)) {
      const row = gflow.catalog.profiles.list().find((p) => p.name === name);
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

/** The default profile as `gflow` resolves it without an argument: GFLOW_CLI_PROFILE, then config.toml. */
export function defaultProfileName(gflow: Gflow): string | undefined {
  if (gflow.settings.profile) return gflow.settings.profile;
  const fromConfig = readConfigToml(gflow.layout.configToml).default_profile;
  if (typeof fromConfig === 'string' && fromConfig) return fromConfig;
  const names = listProfileNames(gflow.layout);
  return names.length === 1 ? names[0] : undefined;
}

/** One row per profile directory in the home (`auth list`, `data list profiles`). */
export function profileRows(gflow: Gflow): ProfileRowView[] {
  const fallback = defaultProfileName(gflow);
  return listProfileNames(gflow.layout).map((name) => {
    const dir = gflow.layout.profileDir(name);
    return {
      name,
      google_account: readProfileMarkersSync(dir).account,
      is_default: name === fallback,
      cookies_present: COOKIE_FILES.some((f) => fs.existsSync(path.join(dir, f))),
      last_used_at: lastUsed(gflow, name, dir),
      profile_dir: dir,
    };
  });
}
