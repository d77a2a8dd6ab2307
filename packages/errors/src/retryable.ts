import { isGflowError } from './gflowError.js';
import { retryableOf } from './problemDocument.js';
import { exitCodeForCode } from './table.js';

/**
 * Whether a scheduler may re-run the same request. The instance override wins
 * (a raise site knows more than its class), then the class default.
 */
export function isRetryable(error: unknown): boolean {
  if (!isGflowError(error)) return false;
  return retryableOf(error);
}

/** The CLI exit code of any thrown value: 0 for none, 1 for a non-gflow error. */
export function exitCodeOf(error: unknown): number {
  if (error === undefined || error === null) return 0;
  if (isGflowError(error)) return exitCodeForCode(error.code);
  if (error instanceof Error && error.name === 'AbortError') return 130;
  return 1;
}
