/** Whether a task row's payload is a run's (else a single generation's); no schema loads to ask. */
export function isRunPayload(payload: unknown): boolean {
  return (payload as { kind?: unknown } | null)?.kind === 'run';
}
