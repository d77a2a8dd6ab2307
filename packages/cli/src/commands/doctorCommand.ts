import { UsageError, toGflowError } from '@gflow/errors';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import type { LeafContext } from '../framework/leafContext.js';
import { type FlowCheckResult, renderFlowCheck } from './doctorLive.js';
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
    'Check the Node runtime, home, settings, browser, profiles and catalog; each finding says what fixes it. Read-only unless --fix. Exit 0, or 33 when something needs attention. --live checks Flow itself instead, for free: exit 0, or 41 when something gflow depends on changed.',
  recordUsage: false,
  flags: () => [
    flag({
      key: 'fix',
      kind: 'boolean',
      description:
        'First repair what is safe (home mode 700, fold the write-ahead log in, drop rows of missing files, hash unhashed files), then check.',
    }),
    flag({
      key: 'live',
      kind: 'boolean',
      description:
        "Check Flow itself on the profile's signed-in account instead (free): walk every control a run needs in a scratch project gflow creates once, read the replies met on the way, submit nothing. Exit 41 on drift.",
    }),
    flag({
      key: 'capture',
      kind: 'string',
      valueHint: 'DIR',
      description:
        'With --live: also write a redacted capture bundle into DIR (masked anchors, reply shapes, build label; no prompt, cookie, token, email or media URL) to attach to an issue.',
    }),
    { ...PROFILE_FLAG, description: `With --live: the profile to check. ${PROFILE_FLAG.description ?? ''}` },
  ],
  examples: [
    'gflow doctor',
    'gflow doctor --fix',
    'gflow doctor --json | jq .checks',
    'gflow doctor --live',
    'gflow doctor --live --capture ./flow-capture --json',
  ],
  async run(ctx, values) {
    if (values['live'] === true) return runLive(ctx, values);
    for (const key of ['capture', 'profile'] as const)
      if (values[key] !== undefined) throw new UsageError(`--${key} goes with --live.`);
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

/** `doctor --live`: core's checkFlow, rendered; --fix does not go with it (it repairs the home, not Flow). */
async function runLive(ctx: LeafContext, values: ParsedValues) {
  if (values['fix'] === true)
    throw new UsageError('--fix and --live do not go together: run them one after the other.');
  const result = (await runOperation(ctx, 'checkFlow', () => ({
    ...(typeof values['profile'] === 'string' ? { profile: values['profile'] } : {}),
    ...(typeof values['capture'] === 'string' ? { capture: values['capture'] } : {}),
  }))) as FlowCheckResult;
  return renderFlowCheck(result);
}
