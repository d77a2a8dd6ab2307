import { BadParameterError } from '@gflow/errors';
import { isProfileName } from '@gflow/flow-facts';
import type { CatalogContext } from '../context.js';
import type { usageEvents } from '../schema/index.js';

export type UsageSurface = (typeof usageEvents.$inferSelect)['surface'];

/** A usage line written while the catalog was closed, with its own time. */
export interface JournaledUsage {
  readonly surface: string;
  readonly command: string;
  readonly profile?: string | null;
  readonly outcome?: string;
  readonly occurredAt: string;
}

export interface RecordUsageInput {
  readonly surface: UsageSurface;
  /** CLI leaf (`image t2i`) or MCP tool name (`gflow_generate_image`). */
  readonly command: string;
  readonly profile?: string | null;
  readonly outcome?: 'ok' | 'error';
}

/** `gflow_usage_stats`: invocations from usage_events, generations from operations. */
export interface UsageStats {
  readonly weeks: number;
  /** Inclusive lower bound (Monday 00:00 UTC of the first week). */
  readonly since: string;
  readonly until: string;
  readonly invocations: {
    readonly total: number;
    /** Week starting Monday (YYYY-MM-DD), oldest first; weeks without events are listed with 0. */
    readonly byWeek: ReadonlyArray<{ readonly week: string; readonly count: number }>;
    readonly bySurface: ReadonlyArray<{ readonly surface: string; readonly count: number }>;
    readonly byCommand: ReadonlyArray<{ readonly surface: string; readonly command: string; readonly count: number }>;
  };
  readonly generations: {
    readonly total: number;
    readonly byCommand: ReadonlyArray<{ readonly command: string; readonly count: number }>;
    readonly byModel: ReadonlyArray<{ readonly model: string | null; readonly count: number }>;
    readonly byStatus: ReadonlyArray<{ readonly status: string; readonly count: number }>;
    /** YYYY-MM, oldest first. */
    readonly byMonth: ReadonlyArray<{ readonly month: string; readonly count: number }>;
  };
}

export interface UsageRepo {
  record(input: RecordUsageInput): void;
  /** Records journaled lines in one transaction; lines of the wrong shape are skipped. Returns how many were kept. */
  recordJournal(lines: readonly JournaledUsage[]): number;
  /** The last `weeks` (1..53, default 12) calendar weeks, Monday-based, UTC, including the current one. */
  stats(options?: { readonly weeks?: number }): UsageStats;
}

const DAY_MS = 86_400_000;
const USAGE_SURFACES: ReadonlySet<string> = new Set<UsageSurface>(['cli', 'mcp', 'http', 'library']);
const COMMAND = /^[\w .:/-]{1,100}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Monday 00:00 UTC of the week holding `date`. */
function weekStart(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

export function createUsageRepo(ctx: CatalogContext): UsageRepo {
  const insert = ctx.db.prepare(
    'INSERT INTO usage_events (surface, command, profile_name, outcome, occurred_at) VALUES (?, ?, ?, ?, ?)',
  );
  // date(t, 'weekday 0', '-6 days') is the Monday on or before t.
  const byWeek = ctx.db.prepare(
    `SELECT date(occurred_at, 'weekday 0', '-6 days') AS week, count(*) AS count FROM usage_events
     WHERE occurred_at >= ? AND occurred_at <= ? GROUP BY week ORDER BY week`,
  );
  const bySurface = ctx.db.prepare(
    'SELECT surface, count(*) AS count FROM usage_events WHERE occurred_at >= ? AND occurred_at <= ? GROUP BY surface ORDER BY count DESC, surface',
  );
  const byCommand = ctx.db.prepare(
    `SELECT surface, command, count(*) AS count FROM usage_events WHERE occurred_at >= ? AND occurred_at <= ?
     GROUP BY surface, command ORDER BY count DESC, surface, command`,
  );
  const generations = (column: string, alias: string, order: string) =>
    ctx.db.prepare(
      // A dry run (credit_state 'estimated') generated nothing: it is not counted as a generation.
      `SELECT ${column} AS ${alias}, count(*) AS count FROM operations WHERE started_at >= ? AND started_at <= ?
       AND credit_state IS NOT 'estimated' GROUP BY ${alias} ORDER BY ${order}`,
    );
  const genByCommand = generations('command', 'command', 'count DESC, command');
  const genByModel = generations('model', 'model', 'count DESC, model');
  const genByStatus = generations('status', 'status', 'count DESC, status');
  const genByMonth = generations('substr(started_at, 1, 7)', 'month', 'month');

  return {
    record(input) {
      if (!COMMAND.test(input.command)) throw new BadParameterError('command must be a short name.');
      ctx.write(() =>
        insert.run(input.surface, input.command, input.profile ?? null, input.outcome ?? 'ok', ctx.now()),
      );
    },
    recordJournal(lines) {
      const valid = lines.filter(
        (l) =>
          typeof l.command === 'string' &&
          COMMAND.test(l.command) &&
          USAGE_SURFACES.has(l.surface) &&
          (l.outcome === undefined || l.outcome === 'ok' || l.outcome === 'error') &&
          (l.profile === undefined ||
            l.profile === null ||
            (typeof l.profile === 'string' && isProfileName(l.profile))) &&
          typeof l.occurredAt === 'string' &&
          ISO_INSTANT.test(l.occurredAt),
      );
      if (valid.length)
        ctx.write(() => {
          for (const l of valid) insert.run(l.surface, l.command, l.profile ?? null, l.outcome ?? 'ok', l.occurredAt);
        });
      return valid.length;
    },
    stats(options = {}) {
      const weeks = options.weeks ?? 12;
      if (!Number.isInteger(weeks) || weeks < 1 || weeks > 53) {
        throw new BadParameterError('weeks must be an integer from 1 to 53.', { extensions: { parameter: 'weeks' } });
      }
      const until = ctx.now();
      const first = new Date(weekStart(new Date(until)).getTime() - (weeks - 1) * 7 * DAY_MS);
      const since = first.toISOString();
      const range = [since, until] as const;
      const weekly = new Map(
        (byWeek.all(...range) as Array<{ week: string; count: number }>).map((r) => [r.week, r.count]),
      );
      const allWeeks = Array.from({ length: weeks }, (_, i) =>
        new Date(first.getTime() + i * 7 * DAY_MS).toISOString().slice(0, 10),
      );
      const byWeekRows = allWeeks.map((week) => ({ week, count: weekly.get(week) ?? 0 }));
      const statusRows = genByStatus.all(...range) as Array<{ status: string; count: number }>;
      return {
        weeks,
        since,
        until,
        invocations: {
          total: byWeekRows.reduce((sum, r) => sum + r.count, 0),
          byWeek: byWeekRows,
          bySurface: bySurface.all(...range) as Array<{ surface: string; count: number }>,
          byCommand: byCommand.all(...range) as Array<{ surface: string; command: string; count: number }>,
        },
        generations: {
          total: statusRows.reduce((sum, r) => sum + r.count, 0),
          byCommand: genByCommand.all(...range) as Array<{ command: string; count: number }>,
          byModel: genByModel.all(...range) as Array<{ model: string | null; count: number }>,
          byStatus: statusRows,
          byMonth: genByMonth.all(...range) as Array<{ month: string; count: number }>,
        },
      };
    },
  };
}
