import { exitCodeOf, isGflowError, redactText, toFailureEnvelope, toGflowError } from '@gflow/errors';
import type { CliIo } from '../cliIo.js';

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes', 'y', 't']);

export function debugTracebackOn(env: NodeJS.ProcessEnv): boolean {
  return TRUE_WORDS.has((env['GFLOW_CLI_DEBUG_TRACEBACK'] ?? '').trim().toLowerCase());
}

/**
 * Reports a failure and returns the exit code. With --json: exactly one
 * document on stdout, the failure envelope every surface uses: `{status, error}`
 * whose error is the RFC 9457 problem plus `retryable` and `message`.
 * Without: `Error: [Class] detail` and `Hint: remediation` on stderr. An
 * error gflow did not raise is masked unless GFLOW_CLI_DEBUG_TRACEBACK is on.
 */
export function renderFailure(
  io: CliIo,
  error: unknown,
  options: { readonly json: boolean; readonly env: NodeJS.ProcessEnv },
): number {
  const code = exitCodeOf(error);
  const exitCode = code === 0 ? 1 : code;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(toFailureEnvelope(error), null, 2)}\n`);
    return exitCode;
  }
  const debug = debugTracebackOn(options.env);
  if (!isGflowError(error) && debug && error instanceof Error) {
    io.stderr.write(`Error: [${(error.name !== 'Error' && error.name) || error.constructor.name}] ${error.message}\n`);
    if (error.stack) io.stderr.write(`${error.stack}\n`);
    return exitCode;
  }
  const gflowError = toGflowError(error);
  io.stderr.write(`Error: [${gflowError.name}] ${redactText(gflowError.detail)}\n`);
  const candidates = gflowError.extensions['candidates'];
  if (Array.isArray(candidates)) {
    for (const c of candidates) io.stderr.write(`  - ${typeof c === 'string' ? c : JSON.stringify(c)}\n`);
  }
  const available = gflowError.extensions['available_profiles'];
  if (Array.isArray(available) && available.length) io.stderr.write(`  Profiles: ${available.join(', ')}\n`);
  if (gflowError.remediationHint) io.stderr.write(`Hint: ${gflowError.remediationHint}\n`);
  if (debug && gflowError.cause instanceof Error && gflowError.cause.stack)
    io.stderr.write(`${gflowError.cause.stack}\n`);
  return exitCode;
}
