// Reads the sandbox catalog (gflow.db) directly, read-only, the way a user
// with sqlite3 would: the task queue and SQLite's own integrity check.
import { createRequire } from 'node:module';

// better-sqlite3 (a devDependency) ships no types and @types/better-sqlite3 is
// not ours to add (the lockfile is shared): the few calls made here are typed locally.
interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}
interface Db {
  prepare(sql: string): Statement;
  pragma(source: string): unknown;
  close(): void;
}
type DatabaseConstructor = new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => Db;
const Database = createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;

export interface TaskRow {
  readonly task_id: string;
  readonly profile_name: string;
  readonly task_type: string;
  readonly status: string;
  readonly claimant: string | null;
  readonly checkpoint_json: string | null;
  readonly error_json: string | null;
}

function withDb<T>(dbPath: string, read: (db: Db) => T): T {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return read(db);
  } finally {
    db.close();
  }
}

export function taskRow(dbPath: string, taskId: string): TaskRow | undefined {
  return withDb(
    dbPath,
    (db) =>
      db
        .prepare(
          'SELECT task_id, profile_name, task_type, status, claimant, checkpoint_json, error_json FROM generation_queue WHERE task_id = ?',
        )
        .get(taskId) as TaskRow | undefined,
  );
}

export function taskRows(dbPath: string): TaskRow[] {
  return withDb(
    dbPath,
    (db) =>
      db
        .prepare(
          'SELECT task_id, profile_name, task_type, status, claimant, checkpoint_json, error_json FROM generation_queue ORDER BY created_at',
        )
        .all() as TaskRow[],
  );
}

export function integrityCheck(dbPath: string): string {
  return withDb(dbPath, (db) =>
    (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check).join('\n'),
  );
}

/** How many operations (runs of a job) the catalog recorded for a task. */
export function operationCount(dbPath: string, taskId: string): number {
  return withDb(
    dbPath,
    (db) => (db.prepare('SELECT count(*) AS n FROM operations WHERE task_id = ?').get(taskId) as { n: number }).n,
  );
}

export interface ChainRow {
  readonly chain_id: string;
  readonly status: string;
  readonly state: { links: Array<{ status: string; flow_media_id?: string | null; file?: string | null }> };
}

/** The sandbox's video chains, newest first. */
export function chainRows(dbPath: string): ChainRow[] {
  return withDb(dbPath, (db) =>
    (
      db.prepare('SELECT chain_id, status, state_json FROM video_chains ORDER BY created_at DESC').all() as Array<{
        chain_id: string;
        status: string;
        state_json: string;
      }>
    ).map((r) => ({ chain_id: r.chain_id, status: r.status, state: JSON.parse(r.state_json) as ChainRow['state'] })),
  );
}

/** Changes the catalog behind gflow's back, as a user with sqlite3 could (tests of what gflow then refuses). */
export function writeCatalog(dbPath: string, write: (db: Pick<Db, 'prepare'>) => void): void {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    write(db);
  } finally {
    db.close();
  }
}

/** The rows a read-only query of the catalog returns (a test's own SELECT). */
export function catalogRows(dbPath: string, sql: string): Array<Record<string, unknown>> {
  return withDb(dbPath, (db) => db.prepare(sql).all() as Array<Record<string, unknown>>);
}
