import { ERROR_CLASSES } from './classes.js';
import { type GflowError, hasErrorCode } from './gflowError.js';
import { type KnownFacts, type ProblemDetails, PROBLEM_MEMBERS, problemOf } from './problemDocument.js';
import { type ErrorCode, ERROR_TYPE_BASE, isErrorCode } from './table.js';
import { toGflowError } from './toGflowError.js';

/** The MCP / `--json` error shape: the problem plus `message`. */
export interface ErrorEnvelopeBody extends ProblemDetails {
  readonly message: string;
}

/** Problem details of any thrown value (masked when it is not a gflow error). Text is redacted. */
export function toProblem(value: unknown, known: KnownFacts = {}): ProblemDetails {
  return problemOf(toGflowError(value), known);
}

/** `[Class] detail (Remediation: hint)`: the one message format, of the envelope's own detail and hint. */
export function errorMessage(value: unknown, known: KnownFacts = {}): string {
  const problem = toProblem(value, known);
  return `[${toGflowError(value).name}] ${problem.detail} (Remediation: ${problem.remediation_hint})`;
}

/** The RFC 9457 problem of any thrown value, with the one-line `message` (`[Class] detail (Remediation: hint)`). */
export function toErrorEnvelopeBody(value: unknown, known: KnownFacts = {}): ErrorEnvelopeBody {
  return { ...toProblem(value, known), message: errorMessage(value, known) };
}

/**
 * The one failure document of every surface (an MCP tool's structured content, the CLI's `--json`):
 * `{status, error}`, `status` `rate_limited` for a refused token and `error` for any other refusal;
 * a job that ran and failed keeps its own status (`failed`, `indeterminate`, …) and its ids beside them.
 */
export interface FailureEnvelope {
  readonly status: 'error' | 'rate_limited';
  readonly error: ErrorEnvelopeBody;
}

/** The failure envelope `{status, error}` of any thrown value: `rate_limited` for a rate limit, else `error`. */
export function toFailureEnvelope(value: unknown, known: KnownFacts = {}): FailureEnvelope {
  return {
    status: hasErrorCode(value, 'rate-limit') ? 'rate_limited' : 'error',
    error: toErrorEnvelopeBody(value, known),
  };
}

/** The code a problem's `type` names, or undefined. */
export function codeOfProblemType(type: string): ErrorCode | undefined {
  if (type === 'about:blank') return 'gflow';
  if (!type.startsWith(ERROR_TYPE_BASE)) return undefined;
  const slug = type.slice(ERROR_TYPE_BASE.length);
  return isErrorCode(slug) ? slug : undefined;
}

/** Rebuilds a typed error from problem details after a process hop (by code, not instanceof). */
export function fromProblem(problem: Pick<ProblemDetails, 'type' | 'detail'> & Partial<ProblemDetails>): GflowError {
  const code = codeOfProblemType(problem.type) ?? 'unknown';
  const ErrorClass = ERROR_CLASSES[code];
  const extensions = Object.fromEntries(Object.entries(problem).filter(([key]) => !PROBLEM_MEMBERS.has(key)));
  const correlationId = problem.instance?.startsWith('gflow:error:')
    ? problem.instance.slice('gflow:error:'.length)
    : undefined;
  return new ErrorClass(problem.detail, {
    ...(problem.remediation_hint ? { remediationHint: problem.remediation_hint } : {}),
    ...(typeof problem.retryable === 'boolean' ? { retryable: problem.retryable } : {}),
    ...(problem.incident ? { incident: problem.incident } : {}),
    ...(correlationId ? { correlationId } : {}),
    extensions,
  });
}
