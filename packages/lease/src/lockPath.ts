import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Longest basename kept in a lock file name; the hash keeps names unique anyway. */
const MAX_SAFE_BASENAME = 48;

/**
 * The canonical form of a profile directory: absolute, with `.`/`..` and symlinks resolved.
 * A directory that does not exist yet (first login) is canonicalised through its nearest
 * existing ancestor, so the key does not change once it is created.
 */
export function canonicalProfileDir(profileDir: string): string {
  const absolute = path.resolve(profileDir);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const parent = path.dirname(current);
      if (!isMissing(error) || parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The readable part of a lock file name: the profile dir's basename reduced to `[A-Za-z0-9._-]`. */
export function safeBasename(canonicalDir: string): string {
  const cleaned = path
    .basename(canonicalDir)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, MAX_SAFE_BASENAME);
  return cleaned === '' ? 'profile' : cleaned;
}

/** `<safe-basename>-<sha256(canonical profile dir)[:16]>.lock` (surfaces §5, home layout). */
export function lockFileName(canonicalDir: string): string {
  const digest = createHash('sha256').update(canonicalDir, 'utf8').digest('hex').slice(0, 16);
  return `${safeBasename(canonicalDir)}-${digest}.lock`;
}

/** The diagnostic sidecar beside a lock file: `<name>.lock` → `<name>.holder.json`. */
export function holderPathFor(lockPath: string): string {
  return lockPath.replace(/\.lock$/, '') + '.holder.json';
}
