import { expect } from 'vitest';
import { type CallOutcome, type Problem, codeOf } from './drivers/outcome.js';

export interface ExpectedFailure {
  /** The error code (`bad-parameter`): the slug of the problem type. */
  readonly code: string;
  readonly status?: number;
  /** The CLI exit code; checked where the surface has one (CLI, and the library's mapped code). */
  readonly exit?: number;
  readonly retryable?: boolean;
}

/** Asserts a call failed with the given problem and returns it. */
export function expectFailure(outcome: CallOutcome, expected: ExpectedFailure): Problem {
  if (outcome.ok)
    throw new Error(
      `expected ${expected.code}, but the call succeeded: ${JSON.stringify(outcome.result).slice(0, 300)}`,
    );
  const { problem } = outcome;
  expect({ code: codeOf(problem), detail: problem.detail }).toMatchObject({ code: expected.code });
  if (expected.status !== undefined) expect(problem.status).toBe(expected.status);
  if (expected.retryable !== undefined) expect(problem.retryable).toBe(expected.retryable);
  if (expected.exit !== undefined && outcome.exitCode !== undefined) expect(outcome.exitCode).toBe(expected.exit);
  return problem;
}

/** Asserts a call succeeded and returns its result. */
export function expectOk(outcome: CallOutcome): Record<string, unknown> {
  if (!outcome.ok) throw new Error(`expected success, got ${codeOf(outcome.problem)}: ${outcome.problem.detail}`);
  return outcome.result;
}
