// The RFC 9457 problem document of a gflow error, built from the error's own members: the one
// home of its shape, which `GflowError.toJSON()` and `toProblem` (any thrown value) both use. It
// reads the error structurally (ProblemSource), so this module does not import the class.
import { redactText } from './redact.js';
import { type ErrorCode, hintForCode, retryableForCode } from './table.js';

/** Where an incident bundle for this error was captured; never a path. */
export interface IncidentRef {
  readonly id: string;
  readonly capture_status: 'captured' | 'skipped' | 'failed' | 'disabled';
}

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

/** What the caller knows that the error may not carry (the project a failed generation ran in). */
export interface KnownFacts {
  readonly flowProjectId?: string | null | undefined;
}

/** What a problem document is made of: the members every GflowError has (read structurally). */
export interface ProblemSource {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly title: string;
  readonly status: number;
  readonly type: string;
  readonly remediationHint: string | undefined;
  readonly retryableOverride: boolean | undefined;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly correlationId: string;
  readonly incident: IncidentRef | undefined;
}

/** The members a problem document reserves: an extension of the same name never overrides them. */
export const PROBLEM_MEMBERS: ReadonlySet<string> = new Set([
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

/** Whether a scheduler may re-run the request: the instance's override wins, then the class default. */
export function retryableOf(error: Pick<ProblemSource, 'code' | 'retryableOverride'>): boolean {
  return error.retryableOverride ?? retryableForCode(error.code);
}

/** The problem document of a gflow error. Text is redacted. */
export function problemOf(error: ProblemSource, known: KnownFacts = {}): ProblemDetails {
  const extensions = Object.fromEntries(Object.entries(error.extensions).filter(([key]) => !PROBLEM_MEMBERS.has(key)));
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
    retryable: retryableOf(error),
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
export function remediationOf(error: Pick<ProblemSource, 'code' | 'remediationHint' | 'retryableOverride'>): string {
  const retryable = retryableOf(error);
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
