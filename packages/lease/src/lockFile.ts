import fs from 'node:fs';
import { ConfigurationError, SecurityError } from '@gflow/errors';

const { O_CREAT, O_EXCL, O_RDWR, O_NONBLOCK } = fs.constants;
/** Not defined on Windows; there the lstat checks below do the refusing. */
export const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;

/** Which file a lock path named when it was checked (compared again once the lock is held). */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

const currentUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/**
 * Creates the locks directory (0700) when missing and refuses one that another user owns or
 * that others can write to: whoever can write there can swap lock files under us.
 */
export function prepareLocksDir(locksDir: string): void {
  try {
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigurationError(`Cannot create the locks directory ${locksDir}.`, { cause: error });
  }
  const stat = fs.statSync(locksDir);
  if (!stat.isDirectory()) throw new SecurityError(`The locks directory ${locksDir} is not a directory.`);
  const uid = currentUid();
  if (uid === undefined) return;
  if (stat.uid !== uid) {
    throw new SecurityError(`The locks directory ${locksDir} belongs to another user (uid ${stat.uid}).`);
  }
  if ((stat.mode & 0o022) !== 0) {
    throw new SecurityError(`The locks directory ${locksDir} is writable by other users.`, {
      remediationHint: `Run: chmod 700 ${locksDir}`,
    });
  }
}

/**
 * Makes sure `lockPath` is a plain lock file of ours and returns its identity.
 *
 * A missing file is created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 (the descriptor is closed at
 * once: nobody can hold a lock on an inode this call just created). An existing file is only
 * lstat'ed, never opened: closing any descriptor of a file drops every POSIX lock this process holds
 * on it, so a raw open/close here could silently free a lease held elsewhere in the process.
 * A symlink, a non-regular file, a file of another user, a hard-linked file or one writable by others
 * is a SecurityError (exit 13).
 */
export function ensureLockFile(lockPath: string): FileIdentity {
  try {
    const fd = fs.openSync(lockPath, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_NONBLOCK, 0o600);
    fs.closeSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw symlinkRefused(lockPath, error);
    if (code !== 'EEXIST') throw new ConfigurationError(`Cannot create the lock file ${lockPath}.`, { cause: error });
  }
  return checkLockFile(lockPath);
}

/** lstat checks of an existing lock path; see ensureLockFile. */
export function checkLockFile(lockPath: string): FileIdentity {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lockPath);
  } catch (error) {
    throw new ConfigurationError(`Cannot inspect the lock file ${lockPath}.`, { cause: error });
  }
  if (stat.isSymbolicLink()) throw symlinkRefused(lockPath);
  if (!stat.isFile()) throw new SecurityError(`The lock path ${lockPath} is not a regular file.`);
  const uid = currentUid();
  if (uid !== undefined) {
    if (stat.uid !== uid)
      throw new SecurityError(`The lock file ${lockPath} belongs to another user (uid ${stat.uid}).`);
    if (stat.nlink !== 1)
      throw new SecurityError(`The lock file ${lockPath} has ${stat.nlink} hard links; a lock file has one.`);
    if ((stat.mode & 0o022) !== 0) throw new SecurityError(`The lock file ${lockPath} is writable by other users.`);
  }
  return { dev: stat.dev, ino: stat.ino };
}

/** After locking: the path must still name the file that was checked before (no swap in between). */
export function assertSameFile(lockPath: string, expected: FileIdentity): void {
  const now = checkLockFile(lockPath);
  if (now.dev !== expected.dev || now.ino !== expected.ino) {
    throw new SecurityError(`The lock file ${lockPath} was replaced while it was being locked.`);
  }
}

function symlinkRefused(lockPath: string, cause?: unknown): SecurityError {
  return new SecurityError(
    `The lock path ${lockPath} is a symbolic link; lock files are never followed through links.`,
    {
      ...(cause === undefined ? {} : { cause }),
      remediationHint: 'Remove the link from the locks directory; gflow recreates the lock file itself.',
    },
  );
}
