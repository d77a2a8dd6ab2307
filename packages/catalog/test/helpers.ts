import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Catalog, openCatalog } from '../src/index.js';
import { type OpenCatalogOptions } from '../src/catalog.js';

/** A temp directory removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gflow-catalog-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A controllable clock: starts at `start`, `tick(ms)` moves it. */
export function fakeClock(start = '2026-03-04T10:00:00.000Z'): {
  now: () => Date;
  tick: (ms: number) => void;
  set: (iso: string) => void;
} {
  let t = Date.parse(start);
  return { now: () => new Date(t), tick: (ms) => void (t += ms), set: (iso) => void (t = Date.parse(iso)) };
}

/** An in-memory catalog with a fake clock that advances 1 ms per read, so rows order deterministically. */
export function memoryCatalog(
  options: Partial<OpenCatalogOptions> = {},
): Catalog & { clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock();
  const catalog = openCatalog({
    path: ':memory:',
    now: () => {
      const d = clock.now();
      clock.tick(1);
      return d;
    },
    ...options,
  });
  return Object.assign(catalog, { clock });
}
