import fs from 'node:fs';
import path from 'node:path';

/** The nearest path at or above `target` that exists, its stat, and the levels below it that do not (top first). */
export function nearestExisting(
  target: string,
): { readonly path: string; readonly stat: fs.Stats; readonly missing: readonly string[] } | undefined {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current);
    } catch {
      stat = undefined;
    }
    if (stat !== undefined) return { path: current, stat, missing: missing.reverse() };
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    missing.push(current);
    current = parent;
  }
}

/**
 * `mkdir -p` one level at a time. Node's own recursive mkdir loops forever at full CPU where the
 * kernel answers ENOENT for a parent that exists (seen on /proc with Node 24.21), so each missing
 * level is made on its own and any error ends the walk.
 */
export function makeDirectories(dir: string): void {
  const found = nearestExisting(dir);
  if (found === undefined) throw Object.assign(new Error(`no part of ${dir} exists`), { code: 'ENOENT' });
  if (!found.stat.isDirectory())
    throw Object.assign(new Error(`${found.path} is not a directory`), { code: 'ENOTDIR' });
  for (const level of found.missing) fs.mkdirSync(level);
}
