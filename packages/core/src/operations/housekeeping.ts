// The local home's health and upkeep, which write: `gflow doctor` (and --fix) and `gflow data prune`
// (drops the rows of files that are gone). No browser; nothing is spent.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { checkBrowser, checkCatalog, checkFlowRecords, checkHome } from '../health/doctorChecks.js';
import { checkpointWal, fixHomeMode, hashUnhashedFiles, pruneMissingFileRows } from '../health/doctorFixes.js';
import { checkConfigToml, checkDeprecatedSettings, checkProfiles } from '../health/homeChecks.js';
import * as S from './catalogSchemas.js';
import { defineOperation } from './operation.js';
import { anyProfile, knownProfileFilter, local } from './catalogParams.js';

export const pruneMissingFiles = defineOperation({
  name: 'pruneMissingFiles',
  mcpName: 'gflow_prune_missing_files',
  title: 'Drop rows of missing local files',
  description:
    'Drops the catalog rows of local copies whose file is gone (rows only; files are never touched). dry_run only reports.',
  ...local,
  kind: 'mutate',
  input: z.object({
    profile: anyProfile,
    dry_run: z.boolean().default(false).describe('Only report what would be dropped.'),
  }),
  output: S.prunedFiles,
  handler: async (input, { runtime }) => {
    const result = runtime.catalog.localFiles.pruneMissing({
      ...knownProfileFilter(runtime, input.profile),
      dryRun: input.dry_run,
    });
    return {
      status: 'ok' as const,
      dry_run: result.dryRun,
      checked: result.checked,
      removed: result.removed.map((r) => ({ id: r.id, asset_id: r.assetId, path: r.path })),
    };
  },
});

export const doctor = defineOperation({
  name: 'doctor',
  mcpName: 'gflow_doctor',
  title: 'Check the gflow home',
  description:
    'Read-only checks of the home, the settings (also under retired names), the browser gflow would launch, the profiles (signed in, markers, cookies, the last free live check) and the catalog (write-ahead log, integrity, migrations, stuck tasks and operations, missing files, rows without a name or a hash); each finding names its rows and the command that fixes it. Creates nothing.',
  kind: 'read',
  usesBrowser: false,
  surfaces: ['cli', 'library'],
  input: z.object({}),
  output: z.strictObject({ status: z.literal('ok'), checks: z.array(S.doctorCheck) }),
  handler: async (_input, { runtime }) => ({
    status: 'ok' as const,
    checks: [
      checkHome(runtime.layout.home),
      { check: 'settings', severity: 'ok' as const, detail: `loaded (home ${runtime.settings.home})` },
      checkConfigToml(runtime.layout.configToml),
      checkDeprecatedSettings(process.env, [
        { where: '.env in the working directory', file: path.join(process.cwd(), '.env') },
        { where: runtime.layout.dotenv, file: runtime.layout.dotenv },
      ]),
      checkBrowser(runtime.settings),
      ...checkProfiles(runtime.layout),
      ...checkFlowRecords(runtime.layout),
      ...checkCatalog(runtime.settings.dbPath, () => runtime.catalog, {
        historyPrompts: runtime.settings.historyPrompts,
      }),
    ],
  }),
});
export const doctorFix = defineOperation({
  name: 'doctorFix',
  mcpName: 'gflow_doctor_fix',
  title: 'Repair what the doctor can repair safely',
  description:
    "The doctor's safe repairs: the home tightened to mode 700, the catalog's write-ahead log folded in, the rows of missing local files dropped (rows only; the assets stay), the SHA-256 of unhashed files that still have their recorded size. Deletes no file and sends nothing; every other finding stays the user's to fix.",
  kind: 'mutate',
  usesBrowser: false,
  surfaces: ['cli', 'library'],
  input: z.object({}),
  output: z.strictObject({ status: z.literal('ok'), fixes: z.array(S.doctorFix) }),
  handler: async (_input, { runtime }) => {
    const fixes = [fixHomeMode(runtime.layout.home)];
    if (fs.existsSync(runtime.settings.dbPath)) {
      const catalog = runtime.catalog;
      fixes.push(pruneMissingFileRows(catalog), await hashUnhashedFiles(catalog));
      fixes.push(checkpointWal(catalog, runtime.settings.dbPath));
    }
    return { status: 'ok' as const, fixes };
  },
});
