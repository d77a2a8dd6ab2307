import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncidentSnapshot } from '@gflow/driver';
import { type GflowError, redact } from '@gflow/errors';
import { type IncidentBrowser, incidentReport } from './incidentReport.js';

/** Bumped when a bundle's files change shape. */
export const INCIDENT_SCHEMA = 1;

export const BUNDLE_FILES = [
  'manifest.json',
  'ui.json',
  'network.json',
  'browser.json',
  'report.md',
  'sensitive/screenshot.png',
] as const;

export interface IncidentBundleInput {
  /** `<GFLOW_CLI_HOME>/incidents`. */
  readonly incidentsDir: string;
  readonly id: string;
  /** The gflow operation, e.g. `generateImage`. */
  readonly operation: string;
  readonly error: GflowError;
  readonly snapshot: IncidentSnapshot;
  /** The last phase the driver reported (e.g. `submitting`); null when unknown. */
  readonly phase?: string | null;
  readonly mayHaveSpent?: boolean;
  readonly taskId?: string | undefined;
  readonly version?: string | null;
  /** Local directories to replace by a placeholder (the home directory always is). */
  readonly redactPaths?: readonly string[];
  /** The browser as gflow launched it (browser.json); null when the caller does not know. */
  readonly browser?: IncidentBrowser | null;
  readonly now?: Date;
}

/** A fresh incident id: 16 hex digits, safe in a directory name and an envelope. */
export function newIncidentId(): string {
  return randomBytes(8).toString('hex');
}

/** `20250102T030405678Z`: sorts like time; never collides with the `-` separators of a bundle name. */
export function incidentStamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, '');
}

/** The bundle directory name `<stamp>-<id>-<rand>` (see pruneIncidents for the pattern). */
export const BUNDLE_NAME = /^\d{8}T\d{9}Z-[0-9a-f]+-[0-9a-f]+$/;
export const DATE_DIR = /^\d{4}-\d{2}-\d{2}$/;

async function privateDir(dir: string, recursive: boolean): Promise<void> {
  await mkdir(dir, { recursive, mode: 0o700 });
  await chmod(dir, 0o700);
}

async function privateFile(file: string, data: string | Buffer): Promise<void> {
  await writeFile(file, data, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Writes one incident bundle: `<incidentsDir>/<YYYY-MM-DD>/<stamp>-<id>-<rand>/` with
 * manifest.json, ui.json, network.json, browser.json, report.md (for a person to read and paste)
 * and sensitive/screenshot.png. Directories are 0700 and
 * files 0600; everything but the screenshot is redacted. A bundle that cannot be written whole is
 * removed. Returns its directory (for the server log only: never put it in an envelope).
 */
export async function writeIncidentBundle(input: IncidentBundleInput): Promise<string> {
  const now = input.now ?? new Date();
  const options = { paths: input.redactPaths ?? [] };
  const dayDir = path.join(input.incidentsDir, now.toISOString().slice(0, 10));
  const dir = path.join(dayDir, `${incidentStamp(now)}-${input.id}-${randomBytes(3).toString('hex')}`);
  await privateDir(input.incidentsDir, true);
  await privateDir(dayDir, true);
  await privateDir(dir, false);
  try {
    const { snapshot, error } = input;
    const screenshot = snapshot.screenshot !== null && snapshot.screenshot.length > 0;
    const manifest = {
      schema: INCIDENT_SCHEMA,
      incident_id: input.id,
      created_at: now.toISOString(),
      gflow_version: input.version ?? null,
      operation: input.operation,
      driver_operation: snapshot.operation,
      task_id: input.taskId ?? null,
      error: {
        code: error.code,
        title: error.title,
        detail: error.detail,
        exit_code: error.exitCode,
        extensions: error.extensions,
      },
      phase: input.phase ?? null,
      may_have_spent: input.mayHaveSpent === true || error.extensions['may_have_spent'] === true,
      url: snapshot.url,
      capture_status: 'captured',
      captured_at: snapshot.capturedAt,
      captured_at_failure: snapshot.atFailure,
      problems: snapshot.problems,
      files: BUNDLE_FILES.filter((f) => screenshot || f !== 'sensitive/screenshot.png'),
    };
    const ui = {
      url: snapshot.url,
      title: snapshot.title,
      captured_at_failure: snapshot.atFailure,
      ...(snapshot.ui ?? { counts: null }),
    };
    const network = { operation: snapshot.operation, entries: snapshot.network };
    const browser = redact(
      input.browser === undefined || input.browser === null
        ? { executable: null, headless: null, args: [] }
        : { executable: input.browser.executable, headless: input.browser.headless, args: [...input.browser.args] },
      options,
    );
    const clean = {
      manifest: redact(manifest, options),
      ui: redact(ui, options),
      network: redact(network, options),
    };
    const report = incidentReport({
      incidentId: input.id,
      createdAt: clean.manifest.created_at,
      operation: clean.manifest.operation,
      driverOperation: clean.manifest.driver_operation,
      phase: clean.manifest.phase,
      mayHaveSpent: clean.manifest.may_have_spent,
      error: {
        code: clean.manifest.error.code,
        title: clean.manifest.error.title,
        detail: clean.manifest.error.detail,
        exitCode: clean.manifest.error.exit_code,
      },
      url: clean.ui.url,
      title: clean.ui.title,
      network: clean.network.entries,
      problems: clean.manifest.problems,
      browser:
        input.browser === undefined || input.browser === null
          ? null
          : { executable: browser.executable, headless: input.browser.headless, args: browser.args },
      files: clean.manifest.files,
    });
    await privateFile(path.join(dir, 'manifest.json'), json(clean.manifest));
    await privateFile(path.join(dir, 'ui.json'), json(clean.ui));
    await privateFile(path.join(dir, 'network.json'), json(clean.network));
    await privateFile(path.join(dir, 'browser.json'), json(browser));
    await privateFile(path.join(dir, 'report.md'), report);
    if (screenshot && snapshot.screenshot !== null) {
      await privateDir(path.join(dir, 'sensitive'), false);
      await privateFile(path.join(dir, 'sensitive', 'screenshot.png'), snapshot.screenshot);
    }
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
