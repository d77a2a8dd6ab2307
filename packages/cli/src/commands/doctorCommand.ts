import { toGflowError } from '@gflow/errors';
import { defineLeaf } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';
import { type DoctorCheck, checkRuntime } from '../doctor/doctorChecks.js';
import { renderTable } from '../output/table.js';

/** Exit code of a doctor run with findings (warn or fail). */
export const DOCTOR_FINDINGS_EXIT = 33;

export const doctorCommand = defineLeaf({
  name: 'doctor',
  description:
    'Check the Node runtime, home, settings, browser, profiles and catalog (read-only); each finding says what fixes it. Exit 0, or 33 when something needs attention.',
  recordUsage: false,
  examples: ['gflow doctor', 'gflow doctor --json | jq .checks'],
  async run(ctx) {
    const checks: DoctorCheck[] = [checkRuntime(ctx.node)];
    try {
      const result = (await runOperation(ctx, 'doctor', () => ({}))) as { checks: readonly DoctorCheck[] };
      checks.push(...result.checks);
    } catch (error) {
      checks.push({ check: 'settings', severity: 'fail', detail: toGflowError(error).detail });
    }
    const issues = checks.some((c) => c.severity === 'warn' || c.severity === 'fail');
    const data = { overall_status: issues ? 'issues' : 'ok', checks };
    // Each finding's fix, and the rows it concerns, under the table.
    const fixes = checks
      .filter((c) => c.remediation !== undefined && c.severity !== 'ok')
      .map((c) => {
        const ids = c.ids?.length ? ` [${c.ids.join(', ')}${(c.count ?? 0) > c.ids.length ? ', …' : ''}]` : '';
        return `  ${c.check}${ids}: ${c.remediation}`;
      });
    const text = `${renderTable(
      ['CHECK', 'SEVERITY', 'DETAIL'],
      checks.map((c) => [c.check, c.severity, c.detail]),
    )}${fixes.length ? `\n\nTo fix:\n${fixes.join('\n')}` : ''}\n\nOverall: ${data.overall_status}`;
    return { data, text, exitCode: issues ? DOCTOR_FINDINGS_EXIT : 0 };
  },
});
