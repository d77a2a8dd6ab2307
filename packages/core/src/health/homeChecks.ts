// The doctor's checks of what a home accumulates: catalog rows gflow cannot use in full, the
// catalog file's own state, settings under retired names, and profiles that cannot sign a run in.
// Read-only, like every doctor check; each finding names the rows it concerns and what fixes it.
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '@gflow/catalog';
import { ACCOUNT_MARKER, COOKIE_STORE_PATHS, STRATEGY_MARKER } from '@gflow/flow-facts';
import { readConfigToml } from '../home/configToml.js';
import type { HomeLayout } from '../home/homeLayout.js';
import { listProfileNames } from '../home/profiles.js';
import { readDotenv } from '../settings/dotenv.js';
import { SETTINGS, type SettingKey } from '../settings/settingsSpec.js';
import type { DoctorCheck } from './doctorCheck.js';

/** How many row ids a finding lists (the count says how many there are). */
export const FINDING_IDS_CAP = 10;

function finding(base: Omit<DoctorCheck, 'ids' | 'count'>, ids: readonly string[]): DoctorCheck {
  return { ...base, ids: ids.slice(0, FINDING_IDS_CAP), count: ids.length };
}

/**
 * Catalog rows gflow cannot use in full: assets without a display name (the picker finds an asset
 * by it, so such an asset is uploaded again from its local file rather than attached in place),
 * projects without a title (listings cannot tell them apart) and local files without a SHA-256
 * (such a file cannot be verified before it is uploaded for one).
 */
export function checkCatalogRows(catalog: Catalog, historyPrompts: 'store' | 'redacted'): DoctorCheck[] {
  const unnamed = (
    catalog.database
      .prepare("SELECT flow_media_id AS id FROM assets WHERE display_name IS NULL OR display_name = '' ORDER BY id")
      .all() as Array<{ id: string }>
  ).map((r) => r.id);
  const unhashed = (
    catalog.database
      .prepare(
        'SELECT a.flow_media_id AS id FROM local_files f JOIN assets a ON a.id = f.asset_id WHERE f.sha256 IS NULL ORDER BY f.id',
      )
      .all() as Array<{ id: string }>
  ).map((r) => r.id);
  const checks: DoctorCheck[] = [];
  checks.push(
    unnamed.length === 0
      ? { check: 'catalog.display_name_missing', severity: 'ok', detail: 'every asset has its display name' }
      : finding(
          {
            check: 'catalog.display_name_missing',
            // Redacted history keeps no names on purpose (GFLOW_CLI_HISTORY_PROMPTS=redacted).
            severity: historyPrompts === 'redacted' ? 'info' : 'warn',
            detail: `${unnamed.length} assets have no display name, so gflow cannot find them in Flow's picker: used as a reference or frame by media id, each is uploaded again from its local file.`,
            remediation: "gflow data sync (reads the names from the projects' pages in Flow; spends nothing)",
          },
          unnamed,
        ),
  );
  const untitled = (
    catalog.database
      .prepare("SELECT flow_project_id AS id FROM projects WHERE title IS NULL OR title = '' ORDER BY id")
      .all() as Array<{ id: string }>
  ).map((r) => r.id);
  checks.push(
    untitled.length === 0
      ? { check: 'catalog.project_title_missing', severity: 'ok', detail: 'every project has its title' }
      : finding(
          {
            check: 'catalog.project_title_missing',
            severity: historyPrompts === 'redacted' ? 'info' : 'warn',
            detail: `${untitled.length} projects have no title in the catalog, so project list and the gallery cannot say which is which.`,
            remediation: "gflow data sync (reads the titles from the projects' pages in Flow; spends nothing)",
          },
          untitled,
        ),
  );
  checks.push(
    unhashed.length === 0
      ? { check: 'catalog.sha256_missing', severity: 'ok', detail: 'every local file has its SHA-256' }
      : finding(
          {
            check: 'catalog.sha256_missing',
            severity: 'warn',
            detail: `${unhashed.length} local files have no SHA-256, so gflow cannot verify them before it uploads one in place of its asset.`,
            remediation: 'gflow data download <media id> (downloads the file again and records its hash)',
          },
          unhashed,
        ),
  );
  return checks;
}

/** A write-ahead log this large has not been folded into the catalog for a long while. */
export const WAL_WARN_BYTES = 64 * 1024 * 1024;

/**
 * The catalog file's state, read before the doctor opens it: a `-wal` left large by processes that
 * never closed the catalog, a `-shm` without its `-wal`; then SQLite's own `quick_check`.
 */
export function walState(dbPath: string): DoctorCheck {
  const size = (file: string): number | undefined => {
    try {
      return fs.statSync(file).size;
    } catch {
      return undefined;
    }
  };
  const wal = size(`${dbPath}-wal`);
  const shm = size(`${dbPath}-shm`);
  const remediation =
    'stop the gflow processes that use this home (gflow serve, gflow mcp run, background workers); the last one to close the catalog folds the log in';
  if (wal !== undefined && wal >= WAL_WARN_BYTES)
    return {
      check: 'catalog.wal',
      severity: 'warn',
      detail: `The catalog's write-ahead log is ${(wal / 1024 / 1024).toFixed(1)} MiB: a process keeps the catalog open, or several ended without closing it.`,
      remediation,
    };
  if (wal === undefined && shm !== undefined)
    return {
      check: 'catalog.wal',
      severity: 'info',
      detail: 'A -shm file without its -wal: left by a process that ended without closing the catalog (harmless).',
    };
  return {
    check: 'catalog.wal',
    severity: 'ok',
    detail: wal === undefined ? 'no write-ahead log' : `write-ahead log ${Math.round(wal / 1024)} KiB`,
  };
}

/** SQLite's `PRAGMA quick_check` of the open catalog. */
export function checkIntegrity(catalog: Catalog): DoctorCheck {
  const rows = catalog.database.prepare('PRAGMA quick_check').all() as Array<Record<string, unknown>>;
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
  return problems.length === 0
    ? { check: 'catalog.integrity', severity: 'ok', detail: 'quick_check ok' }
    : {
        check: 'catalog.integrity',
        severity: 'fail',
        detail: `SQLite's quick_check reports ${problems.length} problems: ${problems.slice(0, 3).join('; ')}.`,
        remediation:
          'copy gflow.db aside, then restore it from a backup (or move it away: gflow starts an empty catalog)',
      };
}

/** config.toml (the default profile, telemetry): absent, or a file that parses — gflow refuses to run on one that does not. */
export function checkConfigToml(file: string): DoctorCheck {
  try {
    readConfigToml(file);
  } catch (error) {
    return {
      check: 'settings.config',
      severity: 'fail',
      detail: error instanceof Error ? error.message : String(error),
      remediation: `fix or delete ${file} (gflow never rewrites a file it cannot parse)`,
    };
  }
  return {
    check: 'settings.config',
    severity: 'ok',
    detail: fs.existsSync(file) ? `${file} parses` : 'no config.toml (defaults)',
  };
}

/**
 * The retired name a setting is still read under: its legacy `FLOW_CLI_*` spelling. (Aliases are
 * current names — `GFLOW_DAEMON_TOKEN` is the one the MCP guide teaches — and are not flagged.)
 */
function retiredName(key: SettingKey): string {
  return SETTINGS[key].env.replace(/^GFLOW_CLI_/, 'FLOW_CLI_');
}

/**
 * Settings still set under a retired name, in the environment or a `.env` gflow reads (they work,
 * but a later release may stop reading them): each with its current name.
 */
export function checkDeprecatedSettings(
  env: NodeJS.ProcessEnv,
  dotenvFiles: ReadonlyArray<{ readonly where: string; readonly file: string }>,
): DoctorCheck {
  const sources = [
    { where: 'the environment', values: env as Record<string, string | undefined> },
    ...dotenvFiles.map((d) => ({ where: d.where, values: readDotenv(d.file) as Record<string, string | undefined> })),
  ];
  const found: string[] = [];
  const renames: string[] = [];
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const name = retiredName(key);
    for (const source of sources) {
      if (source.values[name] === undefined) continue;
      found.push(name);
      renames.push(`${name} → ${SETTINGS[key].env} (${source.where})`);
    }
  }
  return found.length === 0
    ? { check: 'settings.deprecated', severity: 'ok', detail: 'no setting under a retired name' }
    : finding(
        {
          check: 'settings.deprecated',
          severity: 'warn',
          detail: `${found.length} settings are set under a retired name: ${renames.slice(0, 5).join('; ')}.`,
          remediation: `rename them: ${renames.slice(0, 5).join('; ')}`,
        },
        found,
      );
}

/**
 * Profiles that cannot sign a run in: no account marker (never signed in through gflow), no
 * browser-strategy marker (its cookies cannot be read), or no cookie store at all.
 */
export function checkProfiles(layout: HomeLayout): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const names = listProfileNames(layout);
  const missing = (name: string, rel: string): boolean => !fs.existsSync(path.join(layout.profileDir(name), rel));
  const noAccount = names.filter((n) => missing(n, ACCOUNT_MARKER));
  const noStrategy = names.filter((n) => !noAccount.includes(n) && missing(n, STRATEGY_MARKER));
  const noCookies = names.filter(
    (n) => !noAccount.includes(n) && !noStrategy.includes(n) && COOKIE_STORE_PATHS.every((rel) => missing(n, rel)),
  );
  const login = (list: readonly string[], extra = ''): string =>
    list.length === 1
      ? `gflow auth login${extra} --profile ${list[0]}`
      : `gflow auth login${extra} --profile <name> (for each)`;
  if (noAccount.length)
    checks.push(
      finding(
        {
          check: 'profiles.account',
          severity: 'warn',
          detail: `${noAccount.length} profiles were never signed in through gflow (no ${ACCOUNT_MARKER}).`,
          remediation: login(noAccount),
        },
        noAccount,
      ),
    );
  if (noStrategy.length)
    checks.push(
      finding(
        {
          check: 'profiles.marker',
          severity: 'warn',
          detail: `${noStrategy.length} profiles lost their ${STRATEGY_MARKER} marker, so their cookies cannot be read.`,
          remediation: login(noStrategy, ' --browser chrome'),
        },
        noStrategy,
      ),
    );
  if (noCookies.length)
    checks.push(
      finding(
        {
          check: 'profiles.cookies',
          severity: 'warn',
          detail: `${noCookies.length} profiles have no cookie store: their sign-in is gone.`,
          remediation: login(noCookies),
        },
        noCookies,
      ),
    );
  if (checks.length === 0)
    checks.push({
      check: 'profiles',
      severity: names.length ? 'ok' : 'info',
      detail: names.length ? `${names.length} profiles, each signed in` : 'no profile yet (gflow auth login)',
    });
  return checks;
}
