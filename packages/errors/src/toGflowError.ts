import { CancelledError, UnknownError } from './classes.js';
import { type GflowError, isGflowError } from './gflowError.js';

function classNameOf(value: unknown): string {
  // An explicit name first: a bundler may rename a class whose name collides (ProtocolError2).
  if (value instanceof Error) return (value.name !== 'Error' && value.name) || value.constructor.name || 'Error';
  if (value === null) return 'null';
  return typeof value === 'object' ? (value.constructor?.name ?? 'Object') : typeof value;
}

/** The masked sentence clients see for an error gflow did not raise itself. */
export function maskedDetail(value: unknown): string {
  return `Unexpected ${classNameOf(value)}; details were logged server-side.`;
}

/**
 * Turns anything thrown into a GflowError at a boundary. gflow errors pass
 * through untouched; an abort becomes CancelledError; anything else is masked
 * (its text can carry paths or tokens) and kept as `cause` for the server log.
 */
export function toGflowError(value: unknown): GflowError {
  if (isGflowError(value)) return value;
  if (value instanceof Error && value.name === 'AbortError') {
    return new CancelledError('The operation was cancelled.', { cause: value });
  }
  return new UnknownError(maskedDetail(value), { cause: value });
}
