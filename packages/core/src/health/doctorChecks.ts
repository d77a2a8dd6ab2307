// What `gflow doctor` (and a library user) checks of a gflow home, read-only: the home directory,
// the settings, the browser gflow would launch and the catalog. Nothing here creates a file.
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '@gflow/catalog';
import { locateBrowser } from '../jobs/browserLaunch.js';
import { nearestExisting } from '../output/makeDirectories.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import type { DoctorCheck } from './doctorCheck.js';
import { checkCatalogRows, checkIntegrity, walState } from './homeChecks.js';
import { describeLastCheck, flowCheckIsStale, readFlowCheckRecord } from './flowCheckRecord.js';
import { listProfileNames } from '../home/profiles.js';
import type { HomeLayout } from '../home/homeLayout.js';

export type { DoctorCheck, Severity } from './doctorCheck.js';

const DAY_MS = 86_400_000;

/** Why a home that does not exist yet could not be made: the nearest existing parent is a file or not writable. */
function uncreatable(home: string): string | undefined {
  const parent = nearestExisting(path.dirname(home));
  if (parent === undefined) return undefined;
  if (!parent.stat.isDirectory()) return `${parent.path} is not a directory`;
  try {
    fs.accessSync(parent.path, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return `${parent.path} is not writable by you`;
  }
  return undefined;
}

/**
 * The gflow home: a directory, readable and writable by you, not writable by others — or, not
 * there yet, one gflow can create (its nearest existing parent a directory you may write in).
 */
export function checkHome(home: string, platform: NodeJS.Platform = process.platform): DoctorCheck {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(home);
  } catch {
    const why = uncreatable(home);
    return why
      ? { check: 'home', severity: 'fail', detail: `${home} cannot be created: ${why}.` }
      : { check: 'home', severity: 'info', detail: `${home} does not exist yet; it is created on first use.` };
  }
  if (!stat.isDirectory()) return { check: 'home', severity: 'fail', detail: `${home} is not a directory.` };
  if (platform !== 'win32' && (stat.mode & 0o022) !== 0) {
    return {
      check: 'home',
      severity: 'warn',
      detail: `${home} is writable by other users (mode ${(stat.mode & 0o777).toString(8)}); run chmod 700 on it.`,
    };
  }
  try {
    fs.accessSync(home, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    return { check: 'home', severity: 'fail', detail: `${home} is not readable and writable by you.` };
  }
  return { check: 'home', severity: 'ok', detail: home };
}

/** The browser gflow would launch (the one finder, locateBrowser). */
export function checkBrowser(
  settings: Pick<ResolvedSettings, 'browserExecutable'>,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): DoctorCheck {
  const found = locateBrowser(settings, env, platform);
  if (found.source === 'setting') {
    return found.path
      ? { check: 'browser', severity: 'ok', detail: `${found.path} (GFLOW_CLI_BROWSER_EXECUTABLE)` }
      : {
          check: 'browser',
          severity: 'fail',
          detail: `GFLOW_CLI_BROWSER_EXECUTABLE points to ${settings.browserExecutable}, which does not exist.`,
        };
  }
  return found.path
    ? { check: 'browser', severity: 'ok', detail: found.path }
    : {
        check: 'browser',
        severity: 'warn',
        detail: 'No Chrome or Chromium found; install one or set GFLOW_CLI_BROWSER_EXECUTABLE.',
      };
}

/**
 * Catalog checks: the file's write-ahead log (read before it is opened), SQLite's quick_check,
 * migrations, stuck tasks and operations, missing local files, rows without a name or a hash.
 * Never creates the database.
 */
export function checkCatalog(
  dbPath: string,
  open: () => Catalog,
  options: { readonly now?: number; readonly historyPrompts?: 'store' | 'redacted' } = {},
): DoctorCheck[] {
  const now = options.now ?? Date.now();
  if (!fs.existsSync(dbPath))
    return [
      { check: 'catalog', severity: 'info', detail: `${dbPath} does not exist yet; it is created on first use.` },
    ];
  const wal = walState(dbPath);
  let catalog: Catalog;
  try {
    catalog = open();
  } catch (error) {
    return [
      wal,
      { check: 'catalog', severity: 'fail', detail: error instanceof Error ? error.message : String(error) },
    ];
  }
  const checks: DoctorCheck[] = [wal, checkIntegrity(catalog)];
  const status = catalog.migrationStatus();
  if (status.unknown.length)
    checks.push({
      check: 'catalog.migrations',
      severity: 'fail',
      detail: `The schema is newer than this gflow (versions ${status.unknown.map((m) => m.version).join(', ')}).`,
    });
  else if (status.drifted.length)
    checks.push({
      check: 'catalog.migrations',
      severity: 'fail',
      detail: `Applied migrations differ from the shipped ones: ${status.drifted.map((m) => m.filename).join(', ')}.`,
    });
  else if (status.pending.length)
    checks.push({
      check: 'catalog.migrations',
      severity: 'warn',
      detail: `${status.pending.length} migrations pending.`,
    });
  else checks.push({ check: 'catalog.migrations', severity: 'ok', detail: `schema version ${status.latest}` });

  const dayAgo = new Date(now - DAY_MS).toISOString();
  const working = catalog.tasks
    .list({ status: 'working', limit: 1000 })
    .items.filter((t) => (t.claimedAt ?? t.updatedAt) < dayAgo);
  checks.push(
    working.length
      ? {
          check: 'catalog.tasks',
          severity: 'warn',
          detail: `${working.length} tasks have been working for more than 24 h: ${working
            .slice(0, 5)
            .map((t) => t.taskId)
            .join(', ')}.`,
        }
      : { check: 'catalog.tasks', severity: 'ok', detail: 'no task stuck in working' },
  );
  const started = (
    catalog.database
      .prepare("SELECT count(*) AS n FROM operations WHERE status = 'started' AND started_at < ?")
      .get(dayAgo) as { n: number }
  ).n;
  checks.push(
    started
      ? {
          check: 'catalog.operations',
          severity: 'warn',
          detail: `${started} operations have been started for more than 24 h without finishing.`,
        }
      : { check: 'catalog.operations', severity: 'ok', detail: 'no operation stuck in started' },
  );
  const missing = catalog.localFiles.pruneMissing({ dryRun: true });
  checks.push(
    missing.removed.length
      ? {
          check: 'catalog.local_files',
          severity: 'warn',
          detail: `${missing.removed.length} of ${missing.checked} catalogued files are missing on disk.`,
          remediation: 'gflow data prune (drops their rows)',
          count: missing.removed.length,
        }
      : { check: 'catalog.local_files', severity: 'ok', detail: `${missing.checked} catalogued files present` },
  );
  checks.push(...checkCatalogRows(catalog, options.historyPrompts ?? 'store'));
  return checks;
}

/**
 * The last free live check of each profile (`gflow doctor --live`, recorded in the profile's
 * directory): a warning when it found drift, information when it is older than a day or never
 * ran, ok otherwise. Reads only the records; opens no browser.
 */
export function checkFlowRecords(layout: HomeLayout, now: number = Date.now()): DoctorCheck[] {
  return listProfileNames(layout).map((name) => {
    const last = readFlowCheckRecord(layout.profileDir(name)).last_check;
    const detail = describeLastCheck(name, last, now);
    if (last?.status === 'drifted')
      return {
        check: 'flow.live',
        severity: 'warn',
        detail,
        remediation: `gflow doctor --live --profile ${name} (free), then update gflow or file an issue with --capture DIR`,
        ids: [name],
        count: 1,
      };
    return { check: 'flow.live', severity: flowCheckIsStale(last, now) ? 'info' : 'ok', detail, ids: [name], count: 1 };
  });
}
