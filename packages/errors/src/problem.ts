import { ERROR_CLASSES } from './classes.js';
import { type GflowError, type IncidentRef, hasErrorCode } from './gflowError.js';
import { redactText } from './redact.js';
import { isRetryable } from './retryable.js';
import { type ErrorCode, ERROR_TYPE_BASE, hintForCode, isErrorCode, retryableForCode } from './table.js';
import { toGflowError } from './toGflowError.js';

/** RFC 9457 problem details, plus gflow's members. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance: string;
  readonly remediation_hint: string;
  readonly retryable: boolean;
  readonly incident?: IncidentRef;
  readonly [extension: string]: unknown;
}

/** The MCP / `--json` error shape: the problem plus `message`. */
export interface ErrorEnvelopeBody extends ProblemDetails {
  readonly message: string;
}

const RESERVED = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'remediation_hint',
  'retryable',
  'incident',
  'message',
]);

/** What the caller knows that the error may not carry (the project a failed generation ran in). */
export interface KnownFacts {
  readonly flowProjectId?: string | null | undefined;
}

/** Problem details of any thrown value (masked when it is not a gflow error). Text is redacted. */
export function toProblem(value: unknown, known: KnownFacts = {}): ProblemDetails {
  const error = toGflowError(value);
  const extensions = Object.fromEntries(Object.entries(error.extensions).filter(([key]) => !RESERVED.has(key)));
  const project =
    known.flowProjectId ?? (typeof extensions['flow_project_id'] === 'string' ? extensions['flow_project_id'] : null);
  if (project) extensions['flow_project_id'] = project;
  const hint = remediationOf(error);
  return {
    type: error.type,
    title: error.title,
    status: error.status,
    detail: redactText(error.detail),
    instance: `gflow:error:${error.correlationId}`,
    // "Check the Flow project" names the project when it is known (and the hint does not already).
    remediation_hint:
      project && !hint.includes(project) ? hint.replace(/\bthe Flow project\b/, `Flow project ${project}`) : hint,
    retryable: isRetryable(error),
    ...(error.incident ? { incident: { id: error.incident.id, capture_status: error.incident.capture_status } } : {}),
    ...extensions,
  };
}

/** Said instead of a class hint that would advise the opposite of an instance's retryability. */
const NOT_RETRYABLE_HINT =
  'Do not retry this as it is: the request may already have reached Flow and been billed. Check the Flow project first.';
const RETRYABLE_HINT = 'Retry once; if the same error comes back at once, stop and read the detail.';

/**
 * The hint an envelope carries, never contradicting its `retryable`: the raise site's own hint;
 * else the class's, unless the instance flipped the class's retryability (a network error after the
 * submit is not retryable, and "check the connection and retry" would send a client to pay twice).
 */
export function remediationOf(error: GflowError): string {
  const retryable = isRetryable(error);
  const classHint = hintForCode(error.code) ?? RETRYABLE_HINT;
  const own = error.remediationHint !== undefined && error.remediationHint !== classHint ? error.remediationHint : null;
  const flipped = error.retryableOverride !== undefined && error.retryableOverride !== retryableForCode(error.code);
  const hint = own ?? (flipped ? (retryable ? RETRYABLE_HINT : NOT_RETRYABLE_HINT) : classHint);
  // The one guarantee, whoever wrote the hint: it never advises the opposite of `retryable`.
  if (retryable && refusesRetry(hint)) return RETRYABLE_HINT;
  if (!retryable && advisesRetry(hint)) return NOT_RETRYABLE_HINT;
  return hint;
}

/** Whether a hint tells the reader to retry ("…, then retry", "Retry; …", "and retry once"). */
export function advisesRetry(hint: string): boolean {
  return /(^|[.;:]\s+|\b(then|and)\s+)(retry|try again)\b/i.test(hint);
}

/** Whether a hint tells the reader not to retry. */
export function refusesRetry(hint: string): boolean {
  return /\b(do not|don't|never) retry\b/i.test(hint);
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
  const extensions = Object.fromEntries(Object.entries(problem).filter(([key]) => !RESERVED.has(key)));
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
