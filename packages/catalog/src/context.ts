import type { Database } from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { CatalogSchema } from './schema/index.js';

/** `store` keeps prompt text and display names; `redacted` keeps only their SHA-256. */
export type HistoryPromptsMode = 'store' | 'redacted';

/** What every repository shares: the connection, the typed query builder, the clock. */
export interface CatalogContext {
  readonly db: Database;
  readonly orm: BetterSQLite3Database<CatalogSchema>;
  /** The current time as ISO UTC text with ms and Z. */
  readonly now: () => string;
  readonly historyPrompts: HistoryPromptsMode;
  /** Runs `fn` in a BEGIN IMMEDIATE transaction (nested calls become savepoints). */
  write<T>(fn: () => T): T;
}
