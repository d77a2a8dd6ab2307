// The commands that read or prune the catalog outside the sandbox. Run by ../catalogCommands.test.ts
// on a seeded home (seedCatalog), concurrently.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { seedError, seedMedia } from '../catalogSeed.js';
import * as S from '../outputSchemas.js';
import { type CaseTable, OP, describeRun, expectValid, operationNamed, rowsOf } from './harness.js';

/** The real (non-sandbox) catalog: two failed operations (one 40 days old) and a local copy whose file is gone. */
export async function seedCatalog(home: string): Promise<void> {
  await seedMedia(home, 'alice', { fileExists: false });
  await seedError(home, 'alice', 40);
  await seedError(home, 'alice', 1, 'rate-limit');
}

export const CATALOG_CASES: CaseTable = {
  'data list errors': {
    concurrent: true,
    output: { op: true, view: rowsOf('items') },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'errors']);
      expect(rows.map((r) => r['error_type'])).toContain('content-policy');
    },
  },
  'data prune': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['data', 'prune', '--dry-run']);
      expect(p).toMatchObject({ dry_run: true, removed: [expect.objectContaining({ path: expect.any(String) })] });
    },
  },
  'data errors export': {
    concurrent: true,
    output: { op: true, view: rowsOf('items') },
    run: async (t) => {
      const rows = await t.rows(['data', 'errors', 'export']);
      expect(rows.length).toBe(2);
      // With -o FILE it prints a summary instead (the same rows go to the file).
      const file = path.join(t.home, 'errors.jsonl');
      const r = await t.run(['data', 'errors', 'export', '--older-than', '30d', '-o', file, '--json']);
      expect(r.exitCode, describeRun(['data errors export -o'], r)).toBe(0);
      expectValid(S.errorsExportFilePayload, JSON.parse(r.stdout), 'data errors export -o');
      const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(written).toHaveLength(1);
      expectValid(
        rowsOf('items')(operationNamed('exportErrors').output),
        JSON.parse(written[0] as string),
        'data errors export file row',
      );
    },
  },
  'data errors prune': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      expect(await t.json(['data', 'errors', 'prune', '--older-than', '30d', '--dry-run'])).toMatchObject({
        count: 1,
        dry_run: true,
      });
    },
  },
};
