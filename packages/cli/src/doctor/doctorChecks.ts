import fs from 'node:fs';
import path from 'node:path';
import type { Gflow } from '@gflow/core';
import type { NodeRuntime } from '../command/leafContext.js';

export type Severity = 'ok' | 'info' | 'warn' | 'fail';

export interface DoctorCheck {
  readonly check: string;
  readonly severity: Severity;
  readonly detail: string;
}

const DAY_MS = 86_400_000;

/** The running Node against the binary's supported range (fail below it: the catalog's native addon needs it). */
export function checkRuntime(node: NodeRuntime | undefined): DoctorCheck {
  if (!node) return { check: 'runtime', severity: 'info', detail: `Node ${process.versions.node}; this embedding does not say which Node it supports.` };
  return node.supported
    ? { check: 'runtime', severity: 'ok', detail: `Node ${node.version} (supported: ${node.range})` }
    : { check: 'runtime', severity: 'fail', detail: `Node ${node.version} is outside the supported range ${node.range}; install Node 24 LTS or 22 LTS.` };
}

/** The gflow home: present (or not yet created), a directory, not writable by others. */
export function checkHome(home: string, platform: NodeJS.Platform = process.platform): DoctorCheck {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(home);
  } catch {
    return { check: 'home', severity: 'info', detail: `${home} does not exist yet; it is created on first use.` };
  }
  if (!stat.isDirectory()) return { check: 'home', severity: 'fail', detail: `${home} is not a directory.` };
  if (platform !== 'win32' && (stat.mode & 0o022) !== 0) {
    return { check: 'home', severity: 'warn', detail: `${home} is writable by other users (mode ${(stat.mode & 0o777).toString(8)}); run chmod 700 on it.` };
  }
  try {
    fs.accessSync(home, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    return { check: 'home', severity: 'fail', detail: `${home} is not readable and writable by you.` };
  }
  return { check: 'home', severity: 'ok', detail: home };
}

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const FIXED_BROWSERS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe'],
  linux: ['/snap/bin/chromium'],
};

/** GFLOW_CLI_BROWSER_EXECUTABLE, else a Chrome/Chromium on PATH or in the usual places. */
export function checkBrowser(configured: string | undefined, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): DoctorCheck {
  if (configured) {
    return fs.existsSync(configured)
      ? { check: 'browser', severity: 'ok', detail: `${configured} (GFLOW_CLI_BROWSER_EXECUTABLE)` }
      : { check: 'browser', severity: 'fail', detail: `GFLOW_CLI_BROWSER_EXECUTABLE points to ${configured}, which does not exist.` };
  }
  const dirs = (env['PATH'] ?? '').split(path.delimiter).filter(Boolean);
  const exts = platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of dirs) {
    for (const name of BROWSER_NAMES) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        if (fs.existsSync(candidate)) return { check: 'browser', severity: 'ok', detail: candidate };
      }
    }
  }
  const fixed = (FIXED_BROWSERS[platform] ?? []).find((p) => fs.existsSync(p));
  if (fixed) return { check: 'browser', severity: 'ok', detail: fixed };
  return { check: 'browser', severity: 'warn', detail: 'No Chrome or Chromium found; install one or set GFLOW_CLI_BROWSER_EXECUTABLE.' };
}

/** Catalog checks: migrations, stuck tasks and operations, missing local files. Never creates the database. */
export function checkCatalog(gflow: Gflow, now = Date.now()): DoctorCheck[] {
  if (!fs.existsSync(gflow.settings.dbPath)) return [{ check: 'catalog', severity: 'info', detail: `${gflow.settings.dbPath} does not exist yet; it is created on first use.` }];
  let catalog: Gflow['catalog'];
  try {
    catalog = gflow.catalog;
  } catch (error) {
    return [{ check: 'catalog', severity: 'fail', detail: error instanceof Error ? error.message : String(error) }];
  }
  const checks: DoctorCheck[] = [];
  const status = catalog.migrationStatus();
  if (status.unknown.length) checks.push({ check: 'catalog.migrations', severity: 'fail', detail: `The schema is newer than this gflow (versions ${status.unknown.map((m) => m.version).join(', ')}).` });
  else if (status.drifted.length) checks.push({ check: 'catalog.migrations', severity: 'fail', detail: `Applied migrations differ from the shipped ones: ${status.drifted.map((m) => m.filename).join(', ')}.` });
  else if (status.pending.length) checks.push({ check: 'catalog.migrations', severity: 'warn', detail: `${status.pending.length} migrations pending.` });
  else checks.push({ check: 'catalog.migrations', severity: 'ok', detail: `schema version ${status.latest}` });

  const dayAgo = new Date(now - DAY_MS).toISOString();
  const working = catalog.tasks.list({ status: 'working', limit: 1000 }).items.filter((t) => (t.claimedAt ?? t.updatedAt) < dayAgo);
  checks.push(
    working.length
      ? { check: 'catalog.tasks', severity: 'warn', detail: `${working.length} tasks have been working for more than 24 h: ${working.slice(0, 5).map((t) => t.taskId).join(', ')}.` }
      : { check: 'catalog.tasks', severity: 'ok', detail: 'no task stuck in working' },
  );
  const started = (catalog.database.prepare("SELECT count(*) AS n FROM operations WHERE status = 'started' AND started_at < ?").get(dayAgo) as { n: number }).n;
  checks.push(
    started
      ? { check: 'catalog.operations', severity: 'warn', detail: `${started} operations have been started for more than 24 h without finishing.` }
      : { check: 'catalog.operations', severity: 'ok', detail: 'no operation stuck in started' },
  );
  const missing = catalog.localFiles.pruneMissing({ dryRun: true });
  checks.push(
    missing.removed.length
      ? { check: 'catalog.local_files', severity: 'warn', detail: `${missing.removed.length} of ${missing.checked} catalogued files are missing on disk; 'gflow data prune' drops their rows.` }
      : { check: 'catalog.local_files', severity: 'ok', detail: `${missing.checked} catalogued files present` },
  );
  return checks;
}
