// Issue 40: while another process held a write lock on gflow.db, commands exited 16 "Catalog
// Migration Refused … point the catalog path at another file". Now opening a migrated catalog
// takes no write lock at all, a write waits for the lock (the busy timeout), and one held past
// it is CatalogBusyError: exit 42, retryable, naming the catalog, never a migration refusal.
import fs from 'node:fs';
import path from 'node:path';
import { exitCodeOf, isRetryable } from '@gflow/errors';
import { holdSqliteLock } from '@gflow/testkit/cli';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../src/index.js';
import { tempDir } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
let file: string;
const releases: Array<() => Promise<void>> = [];
beforeEach(() => {
  tmp = tempDir();
  file = path.join(tmp.dir, 'gflow.db');
  openCatalog({ path: file }).close();
});
afterEach(async () => {
  for (const release of releases.splice(0)) await release();
  tmp.cleanup();
});

function hold(holdMs?: number) {
  const holder = holdSqliteLock(file, holdMs === undefined ? {} : { holdMs });
  releases.push(() => holder.release());
  return holder;
}

describe('a catalog another process holds with BEGIN EXCLUSIVE', () => {
  it('opens (no write on open) and reads; a write past the busy timeout is CatalogBusyError', async () => {
    await hold().held;
    const catalog = openCatalog({ path: file, busyTimeoutMs: 200 });
    try {
      expect(catalog.projects.list({ limit: 5 })).toBeDefined();
      let caught: unknown;
      try {
        catalog.transaction(() => catalog.profiles.touch('alice'));
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({
        code: 'catalog-busy',
        detail: expect.stringContaining('The catalog (gflow.db) is locked by another process'),
      });
      expect(exitCodeOf(caught)).toBe(42);
      expect(isRetryable(caught)).toBe(true);
      expect(String((caught as Error).message)).not.toMatch(/[Mm]igration/);
    } finally {
      catalog.close();
    }
  });

  it('a write started while the lock is held waits for it and succeeds', async () => {
    const holder = hold(1_500);
    await holder.held;
    const catalog = openCatalog({ path: file, busyTimeoutMs: 60_000 });
    try {
      const started = Date.now();
      catalog.transaction(() => catalog.profiles.touch('alice'));
      // The write could only commit after the holder's COMMIT: it began before and waited it out.
      expect(started).toBeLessThan(await holder.released);
      expect(catalog.profiles.list().map((p) => p.name)).toContain('alice');
    } finally {
      catalog.close();
    }
  });

  it('a fresh catalog that must migrate while the lock is held says busy, not refused', async () => {
    const fresh = path.join(tmp.dir, 'fresh.db');
    fs.writeFileSync(fresh, '');
    const holder = holdSqliteLock(fresh);
    releases.push(() => holder.release());
    await holder.held;
    expect(() => openCatalog({ path: fresh, busyTimeoutMs: 200 })).toThrow(
      expect.objectContaining({ code: 'catalog-busy' }),
    );
  });
});
