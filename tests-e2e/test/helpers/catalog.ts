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

export interface StepRow {
  readonly task_id: string;
  readonly step_index: number;
  readonly status: string;
  readonly checkpoint: { phase?: string; may_have_spent?: boolean; media_ids?: string[] } | null;
}

export interface RunRow {
  readonly task_id: string;
  readonly task_type: string;
  readonly status: string;
  /** The current row of each step position (its newest attempt), in order. */
  readonly steps: StepRow[];
}

/** The sandbox's runs of one kind (batch, chain), newest first, each with its steps as the catalog keeps them. */
export function runRows(dbPath: string, kind: 'batch' | 'chain' | 'story'): RunRow[] {
  return withDb(dbPath, (db) => {
    const runs = db
      .prepare(
        'SELECT task_id, task_type, status FROM generation_queue WHERE task_type = ? AND parent_task_id IS NULL ORDER BY created_at DESC, rowid DESC',
      )
      .all(kind) as Array<{ task_id: string; task_type: string; status: string }>;
    const steps = db.prepare(
      'SELECT task_id, step_index, status, checkpoint_json FROM generation_queue WHERE parent_task_id = ? ORDER BY step_index, created_at, rowid',
    );
    return runs.map((run) => {
      const byIndex = new Map<number, StepRow>();
      for (const row of steps.all(run.task_id) as Array<{
        task_id: string;
        step_index: number;
        status: string;
        checkpoint_json: string | null;
      }>)
        byIndex.set(row.step_index, {
          task_id: row.task_id,
          step_index: row.step_index,
          status: row.status,
          checkpoint: row.checkpoint_json === null ? null : (JSON.parse(row.checkpoint_json) as StepRow['checkpoint']),
        });
      return { ...run, steps: [...byIndex.values()] };
    });
  });
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
