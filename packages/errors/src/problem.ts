import { ERROR_CLASSES } from './classes.js';
import type { GflowError, IncidentRef } from './gflowError.js';
import { redactText } from './redact.js';
import { isRetryable } from './retryable.js';
import { type ErrorCode, ERROR_TYPE_BASE, isErrorCode, stripsStatus } from './table.js';
import { toGflowError } from './toGflowError.js';

/** RFC 9457 problem details, plus gflow's members. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status?: number;
  readonly detail: string;
  readonly instance: string;
  readonly remediation_hint?: string;
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

/** Problem details of any thrown value (masked when it is not a gflow error). Text is redacted. */
export function toProblem(value: unknown): ProblemDetails {
  const error = toGflowError(value);
  const extensions = Object.fromEntries(Object.entries(error.extensions).filter(([key]) => !RESERVED.has(key)));
  return {
    type: error.type,
    title: error.title,
    ...(stripsStatus(error.code) ? {} : { status: error.status }),
    detail: redactText(error.detail),
    instance: `gflow:error:${error.correlationId}`,
    ...(error.remediationHint ? { remediation_hint: error.remediationHint } : {}),
    retryable: isRetryable(error),
    ...(error.incident ? { incident: { id: error.incident.id, capture_status: error.incident.capture_status } } : {}),
    ...extensions,
  };
}

/** `[Class] detail (Remediation: hint)`. */
export function errorMessage(value: unknown): string {
  const error = toGflowError(value);
  const hint = error.remediationHint ? ` (Remediation: ${error.remediationHint})` : '';
  return `[${error.name}] ${redactText(error.detail)}${hint}`;
}

export function toErrorEnvelopeBody(value: unknown): ErrorEnvelopeBody {
  return { ...toProblem(value), message: errorMessage(value) };
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
