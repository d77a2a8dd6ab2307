/** What a finished `gflow …` (or any child) printed, and how it ended. */
export interface CliResult {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code; 128 + the signal's number when a signal ended it. */
  readonly exitCode: number;
  readonly ms: number;
}

/** stdout as one JSON document; the message names stdout and stderr when it is not. */
export function json(result: Pick<CliResult, 'stdout' | 'stderr' | 'exitCode'>): Record<string, unknown> {
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(
      `exit ${result.exitCode} without one JSON document on stdout.\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(-3000)}`,
    );
  }
}

/** stdout as JSON Lines (`gflow data list …` when piped). */
export function jsonLines(result: Pick<CliResult, 'stdout'>): Array<Record<string, unknown>> {
  return result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
