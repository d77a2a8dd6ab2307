import fs from 'node:fs';
import { flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { renderFields } from '../output/table.js';
import { checkForUpdate } from '../update/checkForUpdate.js';

/** The npm package of the gflow binary, and the registry asked (both overridable for tests and mirrors). */
export const UPDATE_PACKAGE_ENV = 'GFLOW_CLI_UPDATE_PACKAGE';
export const UPDATE_REGISTRY_ENV = 'GFLOW_CLI_UPDATE_REGISTRY';
/** How long `gflow update --check` waits for the registry before it says `offline`. */
const EXPLICIT_CHECK_TIMEOUT_MS = 10_000;

function realScript(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

export const updateCommand = defineLeaf({
  name: 'update',
  description: 'Check the npm registry for a newer gflow and say how to upgrade. gflow never upgrades itself.',
  sandbox: false,
  flags: () => [
    flag({
      key: 'check',
      kind: 'boolean',
      description: 'Only check (the default: gflow never installs anything itself).',
    }),
  ],
  examples: ['gflow update --check', 'gflow update --check --json'],
  async run(ctx) {
    const gflow = await ctx.gflow();
    const report = await checkForUpdate({
      installed: ctx.version,
      packageName: ctx.env[UPDATE_PACKAGE_ENV] || '@gflow/app',
      registry: ctx.env[UPDATE_REGISTRY_ENV] || ctx.env['npm_config_registry'] || 'https://registry.npmjs.org',
      enabled: gflow.settings.updateCheck,
      // The file itself: an npm global install starts it through <prefix>/bin/gflow, a symlink.
      scriptPath: realScript(process.argv[1] ?? ''),
      // Asked for by the person at the terminal: a slow registry is waited for a while before
      // `offline` (3 s was too short for a busy machine or network).
      timeoutMs: EXPLICIT_CHECK_TIMEOUT_MS,
    });
    const how = report.update_available ? `\nTo upgrade: ${report.command}` : '';
    return {
      data: report,
      text: `${renderFields({ status: report.status, installed: report.installed, latest: report.latest, installer: report.installer })}\n${report.notes}${how}`,
    };
  },
});
