import { randomUUID } from 'node:crypto';
import { CancelledError, UnknownError } from './classes.js';
import { type GflowError, isGflowError } from './gflowError.js';
import { type MaskedErrorRecord, currentMaskedErrorLog, describeThrown } from './maskedErrorLog.js';

function classNameOf(value: unknown): string {
  // An explicit name first: a bundler may rename a class whose name collides (ProtocolError2).
  if (value instanceof Error) return (value.name !== 'Error' && value.name) || value.constructor.name || 'Error';
  if (value === null) return 'null';
  return typeof value === 'object' ? (value.constructor?.name ?? 'Object') : typeof value;
}

/**
 * The masked sentence clients see for an error gflow did not raise itself: it names the log that
 * holds the details when they were written to one (`loggedTo`, e.g. `logs/errors.log in the gflow
 * home`), and says they were not otherwise — never "logged" when nothing was.
 */
export function maskedDetail(value: unknown, loggedTo?: string): string {
  return loggedTo === undefined
    ? `Unexpected ${classNameOf(value)}; its details were not logged (no gflow home is open in this process).`
    : `Unexpected ${classNameOf(value)}; details were logged to ${loggedTo}.`;
}

/** Each thrown object masks to one error (one log entry, one instance id), however often it is converted. */
const maskedOf = new WeakMap<object, GflowError>();
const recordOf = new WeakMap<GflowError, MaskedErrorRecord>();

/**
 * Turns anything thrown into a GflowError at a boundary. gflow errors pass
 * through untouched; an abort becomes CancelledError; anything else is masked
 * (its text can carry paths or tokens), its details written to the registered
 * error log (maskedErrorLog.ts), and kept as `cause`.
 */
export function toGflowError(value: unknown): GflowError {
  if (isGflowError(value)) return value;
  if (value instanceof Error && value.name === 'AbortError') {
    return new CancelledError('The operation was cancelled.', { cause: value });
  }
  const key = typeof value === 'object' && value !== null ? value : undefined;
  const seen = key && maskedOf.get(key);
  if (seen) return seen;
  const masked = maskAndLog(value);
  if (key) maskedOf.set(key, masked);
  return masked;
}

function maskAndLog(value: unknown): GflowError {
  const correlationId = randomUUID();
  const log = currentMaskedErrorLog();
  const details = log ? describeThrown(value) : '';
  const logged =
    log?.write({
      time: new Date().toISOString(),
      instance: `gflow:error:${correlationId}`,
      pid: process.pid,
      className: classNameOf(value),
      details,
    }) === true;
  const error = new UnknownError(maskedDetail(value, logged ? log?.name : undefined), { cause: value, correlationId });
  if (logged && log) recordOf.set(error, { file: log.file, details });
  return error;
}

/** Where a masked error's details were written, and what they say; undefined when they were not. */
export function maskedErrorRecord(error: unknown): MaskedErrorRecord | undefined {
  return isGflowError(error) ? recordOf.get(error) : undefined;
}
