import { redactText } from '@gflow/errors';
import type { FlowIssueLine } from '../resources/knownIssues.js';
import type { FlowRegistry } from './flowRegistry.js';

/**
 * The registry's current problems as lines of the live known issue (gflow://docs/known-issues/flows):
 * `file:line` with the home directory shown as `~`, and the reason. Undefined when flows are off.
 */
export function flowIssuesOf(registry: FlowRegistry | undefined): (() => FlowIssueLine[]) | undefined {
  if (!registry) return undefined;
  return () =>
    registry.problems().map((problem) => ({
      file: redactText(problem.file),
      line: problem.line,
      reason: redactText(problem.reason),
      severity: problem.severity,
    }));
}
