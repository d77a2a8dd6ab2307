/**
 * A problem found while loading a flow file: where, and why. An `error`
 * rejects the file's new version (the previously loaded one stays live); a
 * `warning` only leaves one entry out (e.g. a spending tool under no-spend).
 */
export interface FlowProblem {
  readonly file: string;
  /** 1-based line in the flow file (1 when the whole file is concerned). */
  readonly line: number;
  readonly reason: string;
  readonly severity: 'error' | 'warning';
}

/** `file:line: reason`, as logs and gflow doctor print it. */
export function formatFlowProblem(problem: FlowProblem): string {
  return `${problem.file}:${problem.line}: ${problem.reason}`;
}
