import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_NAME, DATE_DIR } from './writeIncidentBundle.js';

export const MAX_INCIDENT_BUNDLES = 50;
export const MAX_INCIDENT_BYTES = 250 * 1024 * 1024;

export interface PruneOptions {
  readonly maxBundles?: number;
  readonly maxBytes?: number;
  /** A bundle directory never removed (the one just written). */
  readonly keep?: string;
}

interface Bundle {
  readonly dir: string;
  readonly key: string;
  readonly bytes: number;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** Bytes under a directory (symlinks counted as themselves, never followed). */
async function sizeOf(target: string): Promise<number> {
  const stat = await lstat(target).catch(() => null);
  if (stat === null) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of await entries(target)) total += await sizeOf(path.join(target, name));
  return total;
}

/** The bundles under `incidentsDir`, oldest first (by date folder, then by stamp). */
async function listBundles(incidentsDir: string): Promise<Bundle[]> {
  const bundles: Bundle[] = [];
  for (const day of (await entries(incidentsDir)).filter((d) => DATE_DIR.test(d))) {
    for (const name of (await entries(path.join(incidentsDir, day))).filter((n) => BUNDLE_NAME.test(n))) {
      const dir = path.join(incidentsDir, day, name);
      bundles.push({ dir, key: `${day}/${name}`, bytes: await sizeOf(dir) });
    }
  }
  return bundles.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Keeps at most `maxBundles` bundles and `maxBytes` bytes in all (50 and 250 MiB by default),
 * removing the oldest first; empty date folders go too. Only directories named like bundles are
 * touched. Returns the removed directories.
 */
export async function pruneIncidents(incidentsDir: string, options: PruneOptions = {}): Promise<string[]> {
  const maxBundles = options.maxBundles ?? MAX_INCIDENT_BUNDLES;
  const maxBytes = options.maxBytes ?? MAX_INCIDENT_BYTES;
  const bundles = await listBundles(incidentsDir);
  let count = bundles.length;
  let bytes = bundles.reduce((n, b) => n + b.bytes, 0);
  const removed: string[] = [];
  for (const bundle of bundles) {
    if (count <= maxBundles && bytes <= maxBytes) break;
    if (bundle.dir === options.keep) continue;
    await rm(bundle.dir, { recursive: true, force: true });
    removed.push(bundle.dir);
    count -= 1;
    bytes -= bundle.bytes;
  }
  for (const day of new Set(removed.map((d) => path.dirname(d)))) {
    if ((await entries(day)).length === 0) await rmdir(day).catch(() => undefined);
  }
  return removed;
}
