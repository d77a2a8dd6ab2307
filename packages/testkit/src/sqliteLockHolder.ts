import { spawn } from 'node:child_process';

/** Another process holding a SQLite lock on a file (a catalog), as a busy neighbour would. */
export interface SqliteLockHolder {
  readonly pid: number;
  /** When the lock was taken (the holder's clock, ms since the epoch), once it is. */
  readonly held: Promise<number>;
  /** When it was released (after COMMIT), once it is. */
  readonly released: Promise<number>;
  /** Releases it now (if not yet) and waits for the holder to exit. */
  release(): Promise<void>;
}

// The holder runs on Node's own node:sqlite (no dependency), whose locks are SQLite's fcntl locks
// like better-sqlite3's. It takes the lock with no busy wait of its own, says when, holds it until
// told (a line on stdin) or for HOLD_MS, commits, says when, and exits.
const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('PRAGMA busy_timeout = 0');
db.exec(process.argv[2]);
process.stdout.write('held ' + Date.now() + '\\n');
let done = false;
const release = () => {
  if (done) return;
  done = true;
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released ' + Date.now() + '\\n');
  process.exit(0);
};
process.stdin.on('data', release);
process.stdin.on('end', release);
const holdMs = Number(process.argv[3]);
if (holdMs > 0) setTimeout(release, holdMs);
`;

/**
 * Starts a process that holds `BEGIN EXCLUSIVE` (or `statement`) on `file` until `release()`, or
 * for `holdMs` when given. Await `held` before acting on the file.
 */
export function holdSqliteLock(
  file: string,
  options: { readonly holdMs?: number; readonly statement?: string } = {},
): SqliteLockHolder {
  const child = spawn(
    process.execPath,
    ['-e', HOLDER, file, options.statement ?? 'BEGIN EXCLUSIVE', String(options.holdMs ?? 0)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // The holder may exit on its own (holdMs) just before release() writes: nothing to tell it then.
  child.stdin.on('error', () => undefined);
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stamp = (word: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const match = new RegExp(`^${word} (\\d+)$`, 'm').exec(out);
        if (match) resolve(Number(match[1]));
        return match !== null;
      };
      waiters.push(check);
      void exited.then(() => {
        if (!check()) reject(new Error(`the lock holder exited before "${word}": ${err}`));
      });
    });
  const held = stamp('held');
  const released = stamp('released');
  held.catch(() => undefined);
  released.catch(() => undefined);
  if (child.pid === undefined) throw new Error('the lock holder did not start');
  return {
    pid: child.pid,
    held,
    released,
    async release() {
      if (child.exitCode === null) child.stdin.end('release\n');
      await exited;
    },
  };
}
