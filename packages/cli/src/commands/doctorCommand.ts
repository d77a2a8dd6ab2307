import { toGflowError } from '@gflow/errors';
import { flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';
import { type DoctorCheck, checkRuntime } from '../doctor/doctorChecks.js';
import { renderTable } from '../output/table.js';

/** Exit code of a doctor run with findings (warn or fail). */
export const DOCTOR_FINDINGS_EXIT = 33;

interface DoctorFix {
  readonly check: string;
  readonly outcome: 'fixed' | 'nothing_to_do' | 'failed';
  readonly detail: string;
  readonly count?: number;
}

export const doctorCommand = defineLeaf({
  name: 'doctor',
  description:
    'Check the Node runtime, home, settings, browser, profiles and catalog; each finding says what fixes it. Read-only unless --fix. Exit 0, or 33 when something needs attention.',
  recordUsage: false,
  flags: () => [
    flag({
      key: 'fix',
      kind: 'boolean',
      description:
        'First repair what is safe (home mode 700, fold the write-ahead log in, drop rows of missing files, hash unhashed files), then check.',
    }),
  ],
  examples: ['gflow doctor', 'gflow doctor --fix', 'gflow doctor --json | jq .checks'],
  async run(ctx, values) {
    const checks: DoctorCheck[] = [checkRuntime(ctx.node)];
    let fixes: readonly DoctorFix[] | undefined;
    try {
      if (values['fix'] === true) {
        fixes = ((await runOperation(ctx, 'doctorFix', () => ({}))) as { fixes: readonly DoctorFix[] }).fixes;
      }
      const result = (await runOperation(ctx, 'doctor', () => ({}))) as { checks: readonly DoctorCheck[] };
      checks.push(...result.checks);
    } catch (error) {
      checks.push({ check: 'settings', severity: 'fail', detail: toGflowError(error).detail });
    }
    const issues = checks.some((c) => c.severity === 'warn' || c.severity === 'fail');
    const data = { overall_status: issues ? 'issues' : 'ok', ...(fixes ? { fixes } : {}), checks };
    // What --fix did, above the table; each finding's fix, and the rows it concerns, under it.
    const done = (fixes ?? [])
      .filter((f) => f.outcome !== 'nothing_to_do')
      .map((f) => `  ${f.check}: ${f.outcome === 'fixed' ? '' : 'NOT FIXED: '}${f.detail}`);
    const fixedText =
      fixes === undefined ? '' : done.length ? `Repaired:\n${done.join('\n')}\n\n` : 'Nothing to repair.\n\n';
    const toFix = checks
      .filter((c) => c.remediation !== undefined && c.severity !== 'ok')
      .map((c) => {
        const ids = c.ids?.length ? ` [${c.ids.join(', ')}${(c.count ?? 0) > c.ids.length ? ', …' : ''}]` : '';
        return `  ${c.check}${ids}: ${c.remediation}`;
      });
    const text = `${fixedText}${renderTable(
      ['CHECK', 'SEVERITY', 'DETAIL'],
      checks.map((c) => [c.check, c.severity, c.detail]),
    )}${toFix.length ? `\n\nTo fix:\n${toFix.join('\n')}` : ''}\n\nOverall: ${data.overall_status}`;
    return { data, text, exitCode: issues ? DOCTOR_FINDINGS_EXIT : 0 };
  },
});
