import fs from 'node:fs';
import os from 'node:os';
import { SecurityError } from '@gflow/errors';
import { O_NOFOLLOW } from './lockFile.js';

const { O_CREAT, O_RDONLY, O_RDWR, O_NONBLOCK } = fs.constants;
const MAX_RECORD_BYTES = 4096;

/**
 * Who holds a profile lease, as the holder recorded it. Diagnostic only: it names the holder in
 * ProfileLockedError and never authorises killing a process or unlinking a file.
 */
export interface LeaseHolder {
  readonly pid: number;
  readonly profileName: string;
  readonly hostname: string;
  /** When the holding process started (ISO 8601); tells a recycled pid apart. */
  readonly processStartedAt: string;
  /** When it took the lease (ISO 8601). */
  readonly acquiredAt: string;
  /** What kind of process holds it (e.g. "mcp run", "CLI"), when the holder said. */
  readonly surface?: string;
  /** Whether it is running a job or keeping an idle (warm) browser, when the holder said. */
  readonly activity?: 'busy' | 'idle';
  /** What it is doing (e.g. "Generate images (gflow_generate_image)"), when busy. */
  readonly doing?: string;
  /** Since when it is busy or idle (ISO 8601). */
  readonly activitySince?: string;
  /** True when it watches for waiters and gives the profile up once it is idle (a warm server). */
  readonly handsOff?: boolean;
}

/** What a holder says it is doing; see {@link LeaseHolder}. */
export type LeaseActivity = { readonly state: 'busy'; readonly doing: string } | { readonly state: 'idle' };

interface HolderRecordJson {
  readonly version: 1;
  readonly pid: number;
  readonly process_start_time: string;
  readonly profile_name: string;
  readonly hostname: string;
  readonly acquired_at: string;
  readonly owner_token: string;
  // Optional additions (older readers ignore them, older records lack them).
  readonly surface?: string;
  readonly activity?: 'busy' | 'idle';
  readonly doing?: string;
  readonly activity_since?: string;
  readonly hands_off?: boolean;
}

/** Everything a holder record says, as its holder keeps it. */
export interface HolderRecordFields {
  readonly profileName: string;
  readonly ownerToken: string;
  readonly acquiredAt: Date;
  readonly surface?: string | undefined;
  readonly activity?: LeaseActivity | undefined;
  readonly activitySince?: Date | undefined;
  readonly handsOff?: boolean | undefined;
}

const MAX_TEXT = 200;

/**
 * Writes the sidecar of a lease this process holds (only the holder writes it): once when the lease
 * is taken, again when its activity changes. A symlinked or aliased record is a SecurityError
 * (someone is tampering with the locks dir); any other failure (disk full, permissions) only loses
 * diagnostics and returns false.
 *
 * Rewrites happen while waiters may read the file, so the record is never truncated first: the new
 * JSON is written over the old one from offset 0, padded with spaces (which JSON.parse ignores) to
 * the old length, so a reader sees the old or the new record, never an empty file.
 */
export function writeHolderRecord(holderPath: string, fields: HolderRecordFields): boolean {
  const { activity } = fields;
  const record: HolderRecordJson = {
    version: 1,
    pid: process.pid,
    process_start_time: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    profile_name: fields.profileName,
    hostname: os.hostname(),
    acquired_at: fields.acquiredAt.toISOString(),
    owner_token: fields.ownerToken,
    ...(fields.surface === undefined ? {} : { surface: fields.surface.slice(0, MAX_TEXT) }),
    ...(activity === undefined
      ? {}
      : { activity: activity.state, activity_since: (fields.activitySince ?? new Date()).toISOString() }),
    ...(activity?.state === 'busy' ? { doing: activity.doing.slice(0, MAX_TEXT) } : {}),
    ...(fields.handsOff === undefined ? {} : { hands_off: fields.handsOff }),
  };
  if (O_NOFOLLOW === 0 && isSymlink(holderPath)) throw symlinkedRecord(holderPath);
  let fd: number;
  try {
    fd = fs.openSync(holderPath, O_CREAT | O_RDWR | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw symlinkedRecord(holderPath, error);
    return false;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1) {
      throw new SecurityError(`The lease record ${holderPath} is not a plain file of its own.`);
    }
    if ((stat.mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
    const json = Buffer.from(JSON.stringify(record), 'utf8');
    const length = Math.max(json.length, Math.min(stat.size, MAX_RECORD_BYTES));
    const padded = Buffer.alloc(length, ' ');
    json.copy(padded);
    fs.writeSync(fd, padded, 0, length, 0);
    fs.ftruncateSync(fd, length);
    return true;
  } catch (error) {
    if (error instanceof SecurityError) throw error;
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

function symlinkedRecord(holderPath: string, cause?: unknown): SecurityError {
  return new SecurityError(`The lease record ${holderPath} is a symbolic link; it is never followed.`, {
    ...(cause === undefined ? {} : { cause }),
    remediationHint: 'Remove the link from the locks directory; gflow recreates the record itself.',
  });
}

/** Reads the holder of a lease, or undefined when unknown (no record, unreadable, malformed). */
export function readHolderRecord(holderPath: string): LeaseHolder | undefined {
  const json = readJson(holderPath);
  if (json === undefined) return undefined;
  return {
    pid: json.pid,
    profileName: json.profile_name,
    hostname: json.hostname,
    processStartedAt: json.process_start_time,
    acquiredAt: json.acquired_at,
    ...(typeof json.surface === 'string' ? { surface: json.surface } : {}),
    ...(json.activity === 'busy' || json.activity === 'idle' ? { activity: json.activity } : {}),
    ...(json.activity === 'busy' && typeof json.doing === 'string' ? { doing: json.doing } : {}),
    ...(typeof json.activity_since === 'string' ? { activitySince: json.activity_since } : {}),
    ...(typeof json.hands_off === 'boolean' ? { handsOff: json.hands_off } : {}),
  };
}

/**
 * Empties the sidecar on release, only when it still carries this lease's token. The file is
 * truncated, never unlinked. Best effort: a failure leaves a stale record that blocks nobody.
 */
export function clearHolderRecord(holderPath: string, ownerToken: string): void {
  if (O_NOFOLLOW === 0 && isSymlink(holderPath)) return;
  try {
    const fd = fs.openSync(holderPath, O_RDWR | O_NOFOLLOW | O_NONBLOCK);
    try {
      const json = parseRecord(readAll(fd));
      if (json?.owner_token === ownerToken) fs.ftruncateSync(fd, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Diagnostic data only.
  }
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function readJson(holderPath: string): HolderRecordJson | undefined {
  if (O_NOFOLLOW === 0 && isSymlink(holderPath)) return undefined;
  try {
    const fd = fs.openSync(holderPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      return parseRecord(readAll(fd));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function readAll(fd: number): string | undefined {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile() || stat.size === 0 || stat.size > MAX_RECORD_BYTES) return undefined;
  const buffer = Buffer.alloc(stat.size);
  const read = fs.readSync(fd, buffer, 0, stat.size, 0);
  return buffer.subarray(0, read).toString('utf8');
}

function parseRecord(text: string | undefined): HolderRecordJson | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const strings = ['process_start_time', 'profile_name', 'hostname', 'acquired_at', 'owner_token'] as const;
  if (record['version'] !== 1 || !Number.isSafeInteger(record['pid'])) return undefined;
  if (!strings.every((key) => typeof record[key] === 'string')) return undefined;
  return record as unknown as HolderRecordJson;
}
