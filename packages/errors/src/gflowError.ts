import { randomUUID } from 'node:crypto';
import { type IncidentRef, type KnownFacts, type ProblemDetails, problemOf, retryableOf } from './problemDocument.js';
import {
  type ErrorCode,
  classNameForCode,
  exitCodeForCode,
  hintForCode,
  httpStatusForCode,
  lineageOf,
  titleForCode,
  typeUriForCode,
} from './table.js';

/** Brand shared by every copy of this package, so errors are recognised across bundles. */
export const GFLOW_ERROR_BRAND: unique symbol = Symbol.for('gflow.error') as never;

/** What a gflow error takes besides its detail: the cause, a hint or retryability overriding its class's, problem extension members and an incident. */
export interface GflowErrorOptions {
  readonly cause?: unknown;
  /** Overrides the class default hint. */
  readonly remediationHint?: string;
  /** Overrides the class default retryability (isRetryable reads this first). */
  readonly retryable?: boolean;
  /** Extension members of the problem details, e.g. `{ flow_media_id }`. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly incident?: IncidentRef;
  readonly correlationId?: string;
}

interface ErrorClassWithCode {
  readonly code: ErrorCode;
}

/**
 * The root of gflow's taxonomy. Subclasses declare only `static code`; title,
 * status, exit code, hint and retryability come from ERROR_TABLE.
 */
export class GflowError extends Error {
  static readonly code: ErrorCode = 'gflow';
  readonly [GFLOW_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly detail: string;
  readonly remediationHint: string | undefined;
  readonly retryableOverride: boolean | undefined;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly correlationId: string;
  incident: IncidentRef | undefined;

  constructor(detail?: string, options: GflowErrorOptions = {}) {
    const code = (new.target as unknown as ErrorClassWithCode).code;
    const text = detail ?? titleForCode(code);
    super(text, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = classNameForCode(code);
    this.code = code;
    this.detail = text;
    this.remediationHint = options.remediationHint ?? hintForCode(code);
    this.retryableOverride = options.retryable;
    this.extensions = options.extensions ?? {};
    this.incident = options.incident;
    this.correlationId = options.correlationId ?? randomUUID();
  }

  get title(): string {
    return titleForCode(this.code);
  }

  get exitCode(): number {
    return exitCodeForCode(this.code);
  }

  get status(): number {
    return httpStatusForCode(this.code);
  }

  get type(): string {
    return typeUriForCode(this.code);
  }

  /**
   * Whether a scheduler may re-run the same request: this instance's override (a raise site knows
   * more than its class, e.g. a network error after the submit click), else its class's default.
   */
  get retryable(): boolean {
    return retryableOf(this);
  }

  /**
   * The RFC 9457 problem document (`type`, `title`, `status`, `detail`, `instance`,
   * `remediation_hint`, `retryable`, the extensions), text redacted: what `JSON.stringify(error)`
   * writes, the same document `toProblem(error)` gives and the MCP and CLI envelopes carry.
   */
  toJSON(known: KnownFacts = {}): ProblemDetails {
    return problemOf(this, known);
  }

  /** True when this error is `code` or one of its descendants (cross-copy safe). */
  is(code: ErrorCode): boolean {
    return lineageOf(this.code).includes(code);
  }
}

/** Recognises a GflowError from any copy of this package (brand, not bare instanceof). */
export function isGflowError(value: unknown): value is GflowError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[GFLOW_ERROR_BRAND] === true &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/** True when `value` is a gflow error of `code` or a descendant of it. */
export function hasErrorCode(value: unknown, code: ErrorCode): boolean {
  return isGflowError(value) && lineageOf(value.code).includes(code);
}
