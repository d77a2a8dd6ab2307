import fs from 'node:fs';
import path from 'node:path';
import { InvalidOutputError } from '@gflow/errors';
import { tempPathFor, writeFileAtomic } from './atomicWrite.js';
import { makeDirectories } from './makeDirectories.js';

/**
 * Writes `bytes` to `target` atomically. With `overwrite` a file there is replaced (temp + rename);
 * without, the file is linked into place only if the name is still free when it lands — a file
 * that appeared meanwhile is never replaced (InvalidOutputError), and the temp file is removed.
 */
export async function writeNewFile(target: string, bytes: Uint8Array, overwrite: boolean): Promise<void> {
  if (overwrite) return writeFileAtomic(target, bytes);
  makeDirectories(path.dirname(target));
  const temp = tempPathFor(target);
  try {
    const handle = await fs.promises.open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new InvalidOutputError(`output: ${target} already exists and would be replaced.`, {
        remediationHint: 'Name another file, or pass --force (overwrite=true) to replace it.',
        extensions: { parameter: 'output', existing: [target] },
      });
    throw error;
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
}
