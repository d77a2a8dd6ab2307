// Whether dist/ (the bundle scripts/build.mjs makes) may run: it exists and,
// inside the repository, every source it was built from still has the mtime
// recorded in dist/build.json. Plain JavaScript with no dependencies, so the
// launcher can ask before loading anything else.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// node:fs through require: its ESM face would read every lazy getter of fs (fs/promises, its
// streams and watchers), a few ms of every start (apps/app/bench/cliStart.bench.ts).
const { existsSync, readFileSync, statSync } = createRequire(import.meta.url)('node:fs');

/** @returns {{ fresh: boolean, reason: string }} */
export function distState(distUrl) {
  const distDir = fileURLToPath(distUrl);
  const appDir = path.dirname(distDir);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(distDir, 'build.json'), 'utf8'));
  } catch {
    return { fresh: false, reason: 'missing (not built yet)' };
  }
  if (!existsSync(path.join(distDir, 'main.js'))) return { fresh: false, reason: 'incomplete (no main.js)' };
  // An installed package ships dist/ without its sources: nothing to compare.
  if (!existsSync(path.join(appDir, 'src'))) return { fresh: true, reason: 'installed build' };
  // Hundreds of stats on every start: plain concatenation (no path.join) and no exceptions.
  const base = `${appDir}${path.sep}`;
  const files = manifest.files ?? {};
  for (const rel in files) {
    const stat = statSync(base + rel, { throwIfNoEntry: false });
    if (stat === undefined) return { fresh: false, reason: `stale (${rel} is gone)` };
    if (stat.mtimeMs !== files[rel]) return { fresh: false, reason: `stale (${rel} changed)` };
  }
  return { fresh: true, reason: 'up to date' };
}
