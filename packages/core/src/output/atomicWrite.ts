import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeDirectories } from './makeDirectories.js';

/** A temporary name beside the target, hidden, so a crash never leaves a file under the real name. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`);
}

/**
 * Writes bytes to `target` atomically: temp file in the same directory, fsync,
 * rename. On any failure the temp file is removed and the target is untouched.
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array, mode = 0o644): Promise<void> {
  makeDirectories(path.dirname(target));
  const temp = tempPathFor(target);
  const handle = await fs.promises.open(temp, 'wx', mode);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
    await handle.close();
    await fs.promises.rename(temp, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
