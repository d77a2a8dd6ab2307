import {
  exitCodeOf,
  isGflowError,
  maskedErrorRecord,
  redactText,
  toFailureEnvelope,
  toGflowError,
  type GflowError,
} from '@gflow/errors';
import type { CliIo } from '../cliIo.js';
import { terminalText } from './terminalText.js';

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes', 'y', 't']);

export function debugTracebackOn(env: NodeJS.ProcessEnv): boolean {
  return TRUE_WORDS.has((env['GFLOW_CLI_DEBUG_TRACEBACK'] ?? '').trim().toLowerCase());
}

export interface RenderFailureOptions {
  readonly json: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** -v: a masked error's logged details are printed too. */
  readonly verbose?: boolean;
  /** Applied to the Error and Hint lines' text: the follow-ups they name made runnable (followUps.ts). */
  readonly rewrite?: (text: string) => string;
}

/**
 * Reports a failure and returns the exit code. With --json: exactly one
 * document on stdout, the failure envelope every surface uses: `{status, error}`
 * whose error is the RFC 9457 problem plus `retryable` and `message`.
 * Without: `Error: [Class] detail` and `Hint: remediation` on stderr, shown through the terminal
 * sanitiser. An error gflow did not raise is masked unless GFLOW_CLI_DEBUG_TRACEBACK is on; its
 * details are in the home's error log, whose path is printed (and, with -v, the details).
 */
export function renderFailure(io: CliIo, error: unknown, options: RenderFailureOptions): number {
  const code = exitCodeOf(error);
  const exitCode = code === 0 ? 1 : code;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(toFailureEnvelope(error), null, 2)}\n`);
    return exitCode;
  }
  const say = (line: string): void => void io.stderr.write(`${terminalText(line, { multiline: true })}\n`);
  const debug = debugTracebackOn(options.env);
  if (!isGflowError(error) && debug && error instanceof Error) {
    say(`Error: [${(error.name !== 'Error' && error.name) || error.constructor.name}] ${error.message}`);
    if (error.stack) say(error.stack);
    return exitCode;
  }
  const gflowError = toGflowError(error);
  const rewrite = options.rewrite ?? ((text: string): string => text);
  say(`Error: [${gflowError.name}] ${redactText(rewrite(gflowError.detail))}`);
  for (const line of extraLines(gflowError)) say(line);
  if (gflowError.remediationHint) say(`Hint: ${rewrite(gflowError.remediationHint)}`);
  sayLoggedDetails(gflowError, options.verbose === true, say);
  if (debug && gflowError.cause instanceof Error && gflowError.cause.stack) say(gflowError.cause.stack);
  return exitCode;
}

/** The Flow ids an error names (a job's project, the media Flow made), as strings. */
function flowIdsOf(error: GflowError): { project: string | null; media: string[] } {
  const ext = error.extensions;
  const project = typeof ext['flow_project_id'] === 'string' ? ext['flow_project_id'] : null;
  const listed = Array.isArray(ext['flow_media_ids']) ? ext['flow_media_ids'] : [];
  const media = [...listed, ext['flow_media_id']].filter((id): id is string => typeof id === 'string' && id !== '');
  return { project, media: [...new Set(media)] };
}

function extraLines(error: GflowError): string[] {
  const lines: string[] = [];
  // Where credits may have gone: the project and the media, by id, on the terminal too (not only in --json).
  const ids = flowIdsOf(error);
  if (ids.project !== null && !error.detail.includes(ids.project)) lines.push(`  Flow project: ${ids.project}`);
  const unnamed = ids.media.filter((id) => !error.detail.includes(id));
  if (unnamed.length) lines.push(`  Media: ${unnamed.join(', ')}`);
  const candidates = error.extensions['candidates'];
  if (Array.isArray(candidates))
    for (const c of candidates) lines.push(`  - ${typeof c === 'string' ? c : JSON.stringify(c)}`);
  const available = error.extensions['available_profiles'];
  if (Array.isArray(available) && available.length) lines.push(`  Profiles: ${available.join(', ')}`);
  return lines;
}

/** Where a masked error's details are (the file and the entry), and with -v the details themselves. */
function sayLoggedDetails(error: GflowError, verbose: boolean, say: (line: string) => void): void {
  const record = maskedErrorRecord(error);
  if (!record) return;
  const where = `${redactText(record.file)} (entry gflow:error:${error.correlationId})`;
  if (!verbose) {
    say(`Details: ${where}; run the command again with -v to print them here.`);
    return;
  }
  say(`Details, as logged to ${where}:`);
  say(record.details);
}
