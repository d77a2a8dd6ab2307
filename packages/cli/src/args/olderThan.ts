import { UsageError } from '@gflow/errors';

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** `90d`, `24h`, `30m` → milliseconds; anything else is a usage error (exit 2). */
export function parseOlderThan(raw: string): number {
  const match = /^\s*(\d{1,6})\s*([dhm])\s*$/i.exec(raw);
  if (!match) {
    throw new UsageError(`--older-than takes a number and a unit d, h or m (e.g. 90d, 24h, 30m); got ${JSON.stringify(raw)}.`, { extensions: { parameter: 'older-than' } });
  }
  const unit = (match[2] as string).toLowerCase() as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

/** The ISO instant `olderThan` before `now`. */
export function cutoffIso(olderThanMs: number, now: Date = new Date()): string {
  return new Date(now.getTime() - olderThanMs).toISOString();
}
