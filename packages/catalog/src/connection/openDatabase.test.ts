import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataStoreError, exitCodeOf } from '@gflow/errors';
import { openCatalog } from '../index.js';
import { tempDir } from '../../test/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function expectRefused(file: string): DataStoreError {
  const before = readFileSync(file);
  let caught: unknown;
  try {
    openCatalog({ path: file });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DataStoreError);
  expect(exitCodeOf(caught)).toBe(16);
  expect((caught as DataStoreError).remediationHint).toMatch(/never overwrites/);
  expect(readFileSync(file).equals(before)).toBe(true);
  return caught as DataStoreError;
}

describe('openDatabase', () => {
  it('sets WAL, foreign keys and the busy timeout, and creates the parent directory', () => {
    const file = path.join(tmp.dir, 'nested', 'dir', 'gflow.db');
    const catalog = openCatalog({ path: file });
    const db = catalog.database;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // Long enough to wait out another process's 10 s write (issue 40); settings can change it.
    expect(db.pragma('busy_timeout', { simple: true })).toBe(30_000);
    catalog.close();
    const quick = openCatalog({ path: file, busyTimeoutMs: 250 });
    expect(quick.database.pragma('busy_timeout', { simple: true })).toBe(250);
    quick.close();
  });

  it('refuses a text file at the db path and leaves it untouched', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    writeFileSync(file, 'this is my shopping list, not a database\n'.repeat(10));
    expect(expectRefused(file).detail).toMatch(/not a SQLite database/);
  });

  it('refuses a truncated SQLite header', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    writeFileSync(file, 'SQLite format 3\u0000');
    expectRefused(file);
  });

  it('refuses a file with a SQLite header and garbage pages', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    const bytes = Buffer.alloc(8192, 0xab);
    bytes.write('SQLite format 3\u0000', 0, 'latin1');
    writeFileSync(file, bytes);
    expect(expectRefused(file).detail).toMatch(/corrupt|could not be opened/);
  });

  it('refuses a directory at the db path', () => {
    const dir = path.join(tmp.dir, 'gflow.db');
    mkdirSync(dir);
    expect(() => openCatalog({ path: dir })).toThrow(DataStoreError);
  });

  it('accepts an empty file (SQLite treats it as a new database)', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    writeFileSync(file, '');
    const catalog = openCatalog({ path: file });
    expect(catalog.migrationStatus().pending).toEqual([]);
    catalog.close();
  });

  it('refuses a read-only open of a missing file, and never creates it', () => {
    const file = path.join(tmp.dir, 'missing.db');
    expect(() => openCatalog({ path: file, readonly: true })).toThrow(DataStoreError);
    expect(() => readFileSync(file)).toThrow();
  });

  it('opens an existing catalog read-only: reads work, writes are refused by SQLite', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    openCatalog({ path: file }).projects.upsert({ profile: 'alice', flowProjectId: 'p1', title: 'T' });
    const ro = openCatalog({ path: file, readonly: true });
    expect(ro.projects.list().items.map((p) => p.projectId)).toEqual(['p1']);
    expect(() => ro.projects.upsert({ profile: 'alice', flowProjectId: 'p2' })).toThrow(
      expect.objectContaining({ code: 'data-store', detail: expect.stringContaining('read-only') }),
    );
    ro.close();
  });
});
