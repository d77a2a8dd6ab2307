/** A clock returning the current instant; tests inject a fixed one. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** ISO 8601 UTC with milliseconds and Z, e.g. 2026-01-02T03:04:05.678Z. */
export function isoOf(date: Date): string {
  return date.toISOString();
}
