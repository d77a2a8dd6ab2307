import { BadParameterError } from '@gflow/errors';

/** A page request; limit is clamped to [1, maxLimit], offset to ≥ 0. */
export interface PageOptions {
  readonly limit?: number;
  readonly offset?: number;
}

/** One page of rows; `hasMore` comes from fetching limit + 1 rows. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly count: number;
  readonly offset: number;
  readonly limit: number;
  readonly hasMore: boolean;
  readonly nextOffset: number | null;
}

export function normalisePage(
  options: PageOptions,
  defaultLimit: number,
  maxLimit: number,
): { limit: number; offset: number } {
  const limit = options.limit ?? defaultLimit;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(limit) || !Number.isInteger(offset) || offset < 0) {
    throw new BadParameterError('limit and offset must be integers, offset ≥ 0.', {
      extensions: { parameter: 'limit' },
    });
  }
  return { limit: Math.min(Math.max(limit, 1), maxLimit), offset };
}

/** Builds a page from limit + 1 fetched rows. */
export function toPage<T>(rows: readonly T[], limit: number, offset: number): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, count: items.length, offset, limit, hasMore, nextOffset: hasMore ? offset + limit : null };
}
