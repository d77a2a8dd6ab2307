import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh private directory under the system temp dir (`gflow-<name>-XXXXXX`). */
export function tempDir(name = 'test'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `gflow-${name}-`));
}

/** Removes a directory made by tempDir (retries: a browser may still be letting go of files). */
export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Every file under `dir` (recursively); [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}
