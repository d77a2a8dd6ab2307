import { describe, expect, it } from 'vitest';
import { CLAIM_TASK_SQL } from './tasks/tasksRepo.js';
import { CREDIT_SQL } from './repositories/creditsRepo.js';
import { ERROR_PAGE_SQL } from './repositories/errorsRepo.js';
import { LINEAGE_SQL } from './repositories/lineageRepo.js';
import { MEDIA_LOOKUP_SQL } from './repositories/mediaLookup.js';
import { MEDIA_PAGE_SQL } from './repositories/assetListing.js';
import { PROJECT_PAGE_SQL } from './repositories/projectsRepo.js';
import { seedCatalog } from '../bench/seedCatalog.js';
import { memoryCatalog } from '../test/helpers.js';

// EXPLAIN QUERY PLAN of every read the bench times (and the other pages):
// each table access must go through an index or the integer primary key,
// never a full SCAN of a table.
describe('every catalog read uses an index', () => {
  const catalog = memoryCatalog();
  const db = catalog.database;
  seedCatalog(db, { projects: 200, assets: 5000, operations: 5200, tasks: 50 });

  const plan = (sql: string, params: unknown[]): string[] =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);

  const reads: Array<[string, string, unknown[]]> = [
    ['project page', PROJECT_PAGE_SQL.all, [51, 0]],
    ['project page by profile', PROJECT_PAGE_SQL.byProfile, ['profile0', 51, 0]],
    ['image page', MEDIA_PAGE_SQL.all, ['image', 51, 0]],
    ['video page by profile', MEDIA_PAGE_SQL.byProfile, ['profile1', 'video', 51, 0]],
    ['image page, all copies', MEDIA_PAGE_SQL.allCopies, ['image', 51, 0]],
    ['image page, all copies by profile', MEDIA_PAGE_SQL.allCopiesByProfile, ['profile1', 'image', 51, 0]],
    ['media lookup', MEDIA_LOOKUP_SQL.all, ['media-x']],
    ['media lookup by profile', MEDIA_LOOKUP_SQL.byProfile, ['profile0', 'media-x']],
    ['media prompt', MEDIA_LOOKUP_SQL.prompt, [1]],
    ['media files', MEDIA_LOOKUP_SQL.files, [1]],
    ['lineage: the operation that made an asset', LINEAGE_SQL.madeBy, [1]],
    ["lineage: an operation's assets", LINEAGE_SQL.assetsOf, [1]],
    ['lineage: operations that used an asset', LINEAGE_SQL.usedBy, [1, 50]],
    ['error page', ERROR_PAGE_SQL.all, [21, 0]],
    ['error page by profile', ERROR_PAGE_SQL.byProfile, ['profile0', 21, 0]],
    ['task claim', CLAIM_TASK_SQL, [{ taskId: 't', claimant: 'c', now: 'n', checkpoint: '{}' }]],
    ["a profile's credits today (the budget check)", CREDIT_SQL.dayTotal, ['profile0', '2026-03-04', 1]],
    ['credit usage per day', CREDIT_SQL.usageByDay, [{ since: '2026-03-01', until: '2026-03-04', profile: null }]],
    [
      "a profile's credit usage per day",
      CREDIT_SQL.usageByProfileDay,
      [{ since: '2026-03-01', until: '2026-03-04', profile: 'profile0' }],
    ],
  ];

  for (const [name, sql, params] of reads) {
    it(name, () => {
      const lines = plan(sql, params);
      expect(lines.length).toBeGreaterThan(0);
      const accesses = lines.filter((l) => /^(SCAN|SEARCH) /.test(l));
      expect(accesses.length).toBeGreaterThan(0);
      for (const access of accesses) {
        expect(access, `${name}: ${lines.join(' | ')}`).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      }
      // "newest first" pages are served in index order, not sorted afterwards.
      if (/page/.test(name)) expect(lines.join(' | ')).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    });
  }

  it('the plan check can fail: an unindexed filter is a SCAN', () => {
    const lines = plan('SELECT * FROM assets WHERE model = ?', ['nano2']);
    expect(lines.join(' ')).toMatch(/^SCAN assets$/m);
  });
});
