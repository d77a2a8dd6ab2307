import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { O_NOFOLLOW } from './lockFile.js';

const { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY, O_NONBLOCK } = fs.constants;
const MAX_MARK_BYTES = 1024;

/**
 * How a holder learns that another process waits for its profile: the waiter leaves a "wanted" mark,
 * a small file `<lock name>.wanted-<pid>-<random>` beside the lock, for as long as it waits.
 *
 * Why a file per waiter and not a field in the lock or the holder record: the lock is an SQLite
 * database that only its holder can open, and the holder record is written by the holder alone. A
 * file of its own, created with O_EXCL under a random name, needs no coordination between waiters,
 * and each waiter removes exactly its own.
 *
 * Liveness is a heartbeat, not a guess: a waiter touches its mark (futimes on the descriptor it keeps
 * open) at least every {@link MARK_REFRESH_MS} while it waits, and holders count a mark only while it
 * is fresher than {@link MARK_FRESH_MS}. A waiter that is SIGKILLed leaves a file that stops counting
 * within seconds, whatever happened to its pid (recycled pids included); on this host a mark whose
 * pid is gone stops counting at once. So a stale mark can never make holders give way forever.
 */
export const MARK_REFRESH_MS = 2_000;
/** A mark older than this (mtime) no longer counts: its waiter stopped refreshing it. */
export const MARK_FRESH_MS = 15_000;
/** Marks this old are abandoned beyond doubt; a new waiter unlinks them (tidiness only). */
export const MARK_ABANDONED_MS = 120_000;

/** A process waiting for a profile, as its wanted mark says. */
export interface LeaseWanter {
  readonly pid: number;
  readonly hostname: string;
  /** When it started to wait (ISO 8601). */
  readonly since: string;
  /** What kind of process it is, when it said (e.g. "mcp run"). */
  readonly surface?: string;
}

/** A live mark, with what its ordering needs. */
export interface LiveMark extends LeaseWanter {
  readonly name: string;
  readonly createdAtMs: number;
}

/** The mark this process keeps while it waits. */
export interface WantedMark {
  readonly name: string;
  readonly createdAtMs: number;
  /** Touches the mark when it is due (cheap otherwise); re-creates it if someone removed it. */
  refresh(): void;
  /** Closes and unlinks the mark. Idempotent. */
  remove(): void;
}

interface MarkJson {
  readonly version: 1;
  readonly pid: number;
  readonly hostname: string;
  readonly created_at: string;
  readonly created_at_ms: number;
  readonly surface?: string;
}

/** `<dir>/<lock name without .lock>.wanted-`: the prefix every mark of this lock starts with. */
function markPrefix(lockPath: string): string {
  return `${path.basename(lockPath).replace(/\.lock$/, '')}.wanted-`;
}

/**
 * Creates this process's mark beside `lockPath` (0600, O_CREAT|O_EXCL|O_NOFOLLOW, a name nobody can
 * have prepared). Best effort: when it cannot be written, the caller still waits, only without
 * asking the holder to give way. Also unlinks marks abandoned long ago.
 */
export function writeWantedMark(lockPath: string, surface: string | undefined): WantedMark | undefined {
  const dir = path.dirname(lockPath);
  sweepAbandonedMarks(lockPath);
  const createdAtMs = Date.now();
  const create = (): { name: string; fd: number } | undefined => {
    const name = `${markPrefix(lockPath)}${process.pid}-${randomBytes(6).toString('hex')}`;
    const json: MarkJson = {
      version: 1,
      pid: process.pid,
      hostname: os.hostname(),
      created_at: new Date(createdAtMs).toISOString(),
      created_at_ms: createdAtMs,
      ...(surface === undefined ? {} : { surface: surface.slice(0, 100) }),
    };
    let fd: number | undefined;
    try {
      fd = fs.openSync(path.join(dir, name), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_NONBLOCK, 0o600);
      fs.writeSync(fd, JSON.stringify(json), 0, 'utf8');
      return { name, fd };
    } catch {
      if (fd !== undefined) closeQuietly(fd);
      return undefined;
    }
  };
  let current = create();
  if (current === undefined) return undefined;
  let lastRefresh = createdAtMs;
  let removed = false;
  const remove = (): void => {
    if (removed || current === undefined) return;
    removed = true;
    closeQuietly(current.fd);
    try {
      // unlink never follows a link; the name is ours (random, created with O_EXCL).
      fs.unlinkSync(path.join(dir, current.name));
    } catch {
      // Already gone (swept after a long pause): nothing left to remove.
    }
  };
  return {
    get name() {
      return current?.name ?? '';
    },
    createdAtMs,
    refresh: () => {
      if (removed || current === undefined) return;
      const now = Date.now();
      if (now - lastRefresh < MARK_REFRESH_MS) return;
      lastRefresh = now;
      try {
        // A mark unlinked under us (a sweep after this process was paused for minutes) is made again;
        // it keeps its creation time, so the queue order among waiters does not change.
        if (fs.fstatSync(current.fd).nlink === 0) {
          closeQuietly(current.fd);
          current = create();
          return;
        }
        const seconds = now / 1000;
        fs.futimesSync(current.fd, seconds, seconds);
      } catch {
        // Best effort, like the mark itself.
      }
    },
    remove,
  };
}

/**
 * The live marks of a lock (fresh, of a process that is not this one and, on this host, still
 * running), oldest first. `exclude` is this process's own mark name.
 */
export function liveWanters(lockPath: string, exclude?: string): LiveMark[] {
  const dir = path.dirname(lockPath);
  const prefix = markPrefix(lockPath);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const now = Date.now();
  const host = os.hostname();
  const live: LiveMark[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || name === exclude) continue;
    const json = readMark(path.join(dir, name), now);
    if (json === undefined) continue;
    if (json.hostname === host && (json.pid === process.pid || !pidIsAlive(json.pid))) continue;
    live.push({
      name,
      pid: json.pid,
      hostname: json.hostname,
      since: json.created_at,
      createdAtMs: json.created_at_ms,
      ...(json.surface === undefined ? {} : { surface: json.surface }),
    });
  }
  return live.sort(byArrival);
}

/** Queue order among waiters: who started waiting first, then the name (unique) as a tie-break. */
export function byArrival(a: { createdAtMs: number; name: string }, b: { createdAtMs: number; name: string }): number {
  return a.createdAtMs - b.createdAtMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The public view of a live mark. */
export function wanterOf(mark: LiveMark): LeaseWanter {
  return {
    pid: mark.pid,
    hostname: mark.hostname,
    since: mark.since,
    ...(mark.surface === undefined ? {} : { surface: mark.surface }),
  };
}

function readMark(file: string, now: number): MarkJson | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size === 0 || stat.size > MAX_MARK_BYTES) return undefined;
    if (now - stat.mtimeMs > MARK_FRESH_MS) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, stat.size, 0);
    return parseMark(buffer.subarray(0, read).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function parseMark(text: string): MarkJson | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const mark = value as Record<string, unknown>;
  if (mark['version'] !== 1 || !Number.isSafeInteger(mark['pid']) || (mark['pid'] as number) <= 0) return undefined;
  if (
    typeof mark['hostname'] !== 'string' ||
    typeof mark['created_at'] !== 'string' ||
    !Number.isFinite(mark['created_at_ms'])
  )
    return undefined;
  if (mark['surface'] !== undefined && typeof mark['surface'] !== 'string') return undefined;
  return mark as unknown as MarkJson;
}

/** Unlinks this lock's marks that nobody has refreshed for minutes (their waiters are long gone). */
function sweepAbandonedMarks(lockPath: string): void {
  const dir = path.dirname(lockPath);
  const prefix = markPrefix(lockPath);
  try {
    const now = Date.now();
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const file = path.join(dir, name);
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (stat !== undefined && (stat.isFile() || stat.isSymbolicLink()) && now - stat.mtimeMs > MARK_ABANDONED_MS)
        fs.rmSync(file, { force: true });
    }
  } catch {
    // Tidiness only: an old mark counts for nothing anyway.
  }
}

/** Whether a pid on this host is running (EPERM: it is, as another user). */
function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed.
  }
}
