/**
 * The statuses of a generation envelope (`{status, task_id, …}`), the one vocabulary of its error
 * channel: wait=true ends `completed` or in a failure, wait=false answers `pending`, a dry run
 * `estimated` (nothing submitted; not a failure).
 */
export const RESULT_STATUSES = [
  'completed',
  'estimated',
  'failed',
  'pending',
  'error',
  'rate_limited',
  'invalid_tools',
  'cancelled',
  'indeterminate',
] as const;

/** One of `RESULT_STATUSES`: the `status` field of every operation result. */
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/**
 * The statuses that mean the call did not produce its media: MCP marks the tool result
 * `isError`, a flow stops its pipeline, the CLI exits non-zero. `indeterminate` (stopped after
 * the submit click) is one: credits may have been spent, but no file was written.
 */
export const FAILURE_STATUSES = [
  'failed',
  'error',
  'rate_limited',
  'invalid_tools',
  'cancelled',
  'indeterminate',
] as const satisfies readonly ResultStatus[];

/** One of `FAILURE_STATUSES`: a `status` that means the call did not produce its media. */
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

/**
 * The failure statuses whose `error` is a problem document (RFC 9457, with its `message`): every
 * one but `invalid_tools`, whose `error` is the prompt tool's complaint in words.
 */
export const PROBLEM_STATUSES = [
  'failed',
  'error',
  'rate_limited',
  'cancelled',
  'indeterminate',
] as const satisfies readonly FailureStatus[];

/** One of `PROBLEM_STATUSES`. */
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];

const FAILURES: ReadonlySet<string> = new Set(FAILURE_STATUSES);

/** Whether a reply's `status` says it failed (anything that is not a string never does). */
export function isFailureStatus(status: unknown): status is FailureStatus {
  return typeof status === 'string' && FAILURES.has(status);
}
