// The throwing mode of the library (issue 42): a generation that fails inside Flow, is cancelled or
// ends indeterminate *resolves* with its failure envelope `{status, error}` (every surface reads the
// same document, and a batch keeps what it made). A program that wants `try/catch` alone opts in:
// `createGflow({ throwOnFailure: true })`, `run(…, { throwOnFailure: true })`, or `orThrow(…)`. The
// error thrown is the typed one the envelope describes, rebuilt by its code (`fromProblem`).
import { type GflowError, type ProblemDetails, UnknownError, fromProblem } from '@gflow/errors';
import { isFailureStatus } from '../schemas/resultStatus.js';

/** Members of a failed envelope the thrown error carries as extensions, to follow the run up. */
const ENVELOPE_FACTS = ['task_id', 'flow_project_id', 'flow_media_ids'] as const;

function isProblem(value: unknown): value is ProblemDetails {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    typeof (value as { detail?: unknown }).detail === 'string'
  );
}

/** The envelope's own problem, else the first failed element's of a run of many (a batch's items, a chain's links). */
function problemIn(envelope: Readonly<Record<string, unknown>>): ProblemDetails | undefined {
  if (isProblem(envelope['error'])) return envelope['error'];
  for (const key of ['items', 'links', 'steps']) {
    const list = envelope[key];
    if (!Array.isArray(list)) continue;
    for (const element of list as unknown[]) {
      const { status, error } = (element ?? {}) as { status?: unknown; error?: unknown };
      if (isFailureStatus(status) && isProblem(error)) return error;
    }
  }
  return undefined;
}

/**
 * The typed error a result stands for, when it is a failure envelope (`status` one of
 * `FAILURE_STATUSES`); undefined for anything else (`completed`, `pending`, `estimated`, `ok`, …).
 */
export function failureOf(result: unknown): GflowError | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const envelope = result as Readonly<Record<string, unknown>>;
  const status = envelope['status'];
  if (!isFailureStatus(status)) return undefined;
  const problem = problemIn(envelope);
  const facts = Object.fromEntries(
    ENVELOPE_FACTS.filter((key) => envelope[key] !== undefined && envelope[key] !== null).map((key) => [
      key,
      envelope[key],
    ]),
  );
  if (!problem)
    return new UnknownError(`The operation ended "${status}" without an error document.`, { extensions: facts });
  return fromProblem({ ...facts, ...problem });
}

/**
 * Awaits a result and throws the typed error of a failure envelope (`{status: "failed" |
 * "cancelled" | "indeterminate" | …, error}`), so `try/catch` sees every failure; any other
 * result is returned as it is. The error keeps the envelope's `task_id` and `flow_project_id` as
 * extensions. `createGflow({ throwOnFailure: true })` does this for every call.
 *
 * @example
 * import { createGflow, orThrow } from '@gflow/core';
 * import { isGflowError } from '@gflow/errors';
 *
 * const gflow = createGflow();
 * try {
 *   const image = await orThrow(gflow.run('generateImage', { prompt: 'a lighthouse at dusk' }));
 *   console.log(image.files);
 * } catch (error) {
 *   if (isGflowError(error) && error.retryable) console.log('try again later:', error.detail);
 * } finally {
 *   await gflow.close();
 * }
 */
export async function orThrow<T>(result: T | PromiseLike<T>): Promise<T> {
  const value = await result;
  const error = failureOf(value);
  if (error) throw error;
  return value;
}
