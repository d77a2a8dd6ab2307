import { DataIntegrityError, DataStoreError, isGflowError, redactAndClip } from '@gflow/errors';

/** node-postgres error codes (SQLSTATE classes) that mean the fleet's database cannot be reached now. */
const UNREACHABLE = /^(08|57P|53)/;

/**
 * The fleet's database boundary: gflow's own errors (a refused transition, a unique key) pass
 * through; anything else from PostgreSQL or the network becomes a DataStoreError (exit 16) that
 * names the fleet, with its message redacted (a URL's password never reaches an envelope) and the
 * original kept as `cause` for the server log.
 */
export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isGflowError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    // A unique key another process wrote first (two calls with one idempotency key racing).
    if (code === '23505')
      throw new DataIntegrityError('The fleet already holds a row with this key (a repeated call raced this one).', {
        cause: error,
      });
    const unreachable =
      (typeof code === 'string' && UNREACHABLE.test(code)) ||
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(String(code));
    const message = error instanceof Error ? redactAndClip(error.message, 300) : 'unknown';
    throw new DataStoreError(
      unreachable
        ? `The fleet's PostgreSQL (GFLOW_FLEET_URL) cannot be reached: ${message}`
        : `The fleet's PostgreSQL refused a statement: ${message}`,
      {
        cause: error,
        retryable: unreachable,
        remediationHint: 'Check GFLOW_FLEET_URL and that the fleet database is up (docs/FLEET.md).',
        extensions: { backend: 'postgres', ...(typeof code === 'string' ? { sql_state: code } : {}) },
      },
    );
  }
}
