import fs from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p` one level at a time. Node's own recursive mkdir loops forever at full CPU where the
 * kernel answers ENOENT for a parent that exists (seen on /proc with Node 24.21), so each missing
 * level is made on its own and any error ends the walk.
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current);
    } catch {
      stat = undefined;
    }
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw Object.assign(new Error(`${current} is not a directory`), { code: 'ENOTDIR' });
      break;
    }
    const parent = path.dirname(current);
    if (parent === current) break;
    missing.push(current);
    current = parent;
  }
  for (const level of missing.reverse()) fs.mkdirSync(level);
}
