import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadParameterError } from '@gflow/errors';
import { memoryCatalog, tempDir } from '../../test/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function writeMedia(name: string, content: string): { path: string; bytes: number; sha256: string } {
  const file = path.join(tmp.dir, name);
  writeFileSync(file, content);
  return { path: file, bytes: Buffer.byteLength(content), sha256: createHash('sha256').update(content).digest('hex') };
}

describe('local files', () => {
  it('records a copy once per (asset, path) and refreshes bytes and hash', () => {
    const c = memoryCatalog();
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    const f1 = c.localFiles.record({ assetId: a.id, path: '/x.png', bytes: 1, mediaType: 'image/png' });
    const f2 = c.localFiles.record({ assetId: a.id, path: '/x.png', bytes: 2, sha256: 'A'.repeat(64) });
    expect(f2).toMatchObject({
      id: f1.id,
      bytes: 2,
      sha256: 'a'.repeat(64),
      mediaType: 'image/png',
      profileName: 'alice',
    });
    expect(c.localFiles.listForAsset(a.id)).toHaveLength(1);
    expect(() => c.localFiles.record({ assetId: a.id, path: '/y', bytes: -1 })).toThrow(BadParameterError);
    expect(() => c.localFiles.record({ assetId: a.id, path: '/y', bytes: 1, sha256: 'zz' })).toThrow(BadParameterError);
  });

  it('hashMissing records the hash of unhashed files that still have their recorded size, and skips the rest', async () => {
    const c = memoryCatalog();
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    const same = writeMedia('same.png', 'png bytes');
    const grown = writeMedia('grown.png', 'png');
    const kept = writeMedia('kept.png', 'kept');
    const rowSame = c.localFiles.record({ assetId: a.id, path: same.path, bytes: same.bytes });
    const rowGrown = c.localFiles.record({ assetId: a.id, path: grown.path, bytes: grown.bytes });
    c.localFiles.record({ assetId: a.id, path: path.join(tmp.dir, 'gone.png'), bytes: 4 });
    c.localFiles.record({ assetId: a.id, ...kept, sha256: 'b'.repeat(64) });
    writeFileSync(grown.path, 'png, and more');
    expect(await c.localFiles.hashMissing()).toEqual({ hashed: 1, skipped: 2 });
    const byPath = new Map(c.localFiles.listForAsset(a.id).map((f) => [f.path, f.sha256]));
    expect(byPath.get(rowSame.path)).toBe(same.sha256);
    expect(byPath.get(rowGrown.path)).toBeNull();
    expect(byPath.get(kept.path)).toBe('b'.repeat(64));
  });

  it('verifies existence, size and (when asked) SHA-256', async () => {
    const c = memoryCatalog();
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    const good = writeMedia('good.png', 'png bytes');
    const row = c.localFiles.record({ assetId: a.id, ...good });
    expect(await c.localFiles.verify(row, { checkSha256: true })).toEqual({ file: row, sha256Checked: true });

    writeFileSync(good.path, 'png bytez'); // same size, different content
    expect(await c.localFiles.verify(row)).toEqual({ file: row, sha256Checked: false });
    expect(await c.localFiles.verify(row, { checkSha256: true })).toBeNull();

    writeFileSync(good.path, 'longer png bytes');
    expect(await c.localFiles.verify(row)).toBeNull();
    rmSync(good.path);
    expect(await c.localFiles.verify(row)).toBeNull();

    const noHash = c.localFiles.record({ assetId: a.id, path: writeMedia('nohash.png', 'abc').path, bytes: 3 });
    expect(await c.localFiles.verify(noHash)).not.toBeNull();
    expect(await c.localFiles.verify(noHash, { checkSha256: true })).toBeNull();

    const cloud = c.localFiles.record({
      assetId: a.id,
      path: 'gs://bucket/x.png',
      bytes: 3,
      storageProvider: 'gcs',
      cloudUri: 'gs://bucket/x.png',
    });
    expect(await c.localFiles.verify(cloud)).toBeNull();
  });

  it('firstVerified picks the newest copy that still matches', async () => {
    const c = memoryCatalog();
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    const older = writeMedia('older.png', 'one');
    c.localFiles.record({ assetId: a.id, ...older });
    const newer = writeMedia('newer.png', 'two!');
    c.localFiles.record({ assetId: a.id, ...newer });
    expect((await c.localFiles.firstVerified(a.id, { checkSha256: true }))?.file.path).toBe(newer.path);
    rmSync(newer.path);
    expect((await c.localFiles.firstVerified(a.id, { checkSha256: true }))?.file.path).toBe(older.path);
    rmSync(older.path);
    expect(await c.localFiles.firstVerified(a.id)).toBeNull();
  });

  it('prunes local rows whose file is gone (dry run first), keeps cloud rows and other profiles', () => {
    const c = memoryCatalog();
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    const b = c.assets.record({ profile: 'bob', flowMediaId: 'm', kind: 'image' });
    const kept = writeMedia('kept.png', 'k');
    c.localFiles.record({ assetId: a.id, ...kept });
    c.localFiles.record({ assetId: a.id, path: path.join(tmp.dir, 'gone.png'), bytes: 1 });
    c.localFiles.record({ assetId: a.id, path: 's3://b/k', bytes: 1, storageProvider: 's3' });
    c.localFiles.record({ assetId: b.id, path: path.join(tmp.dir, 'bob-gone.png'), bytes: 1 });

    const dry = c.localFiles.pruneMissing({ profile: 'alice', dryRun: true });
    expect(dry).toMatchObject({ checked: 2, dryRun: true });
    expect(dry.removed.map((r) => path.basename(r.path))).toEqual(['gone.png']);
    expect(c.localFiles.listForAsset(a.id)).toHaveLength(3);

    const real = c.localFiles.pruneMissing({ profile: 'alice' });
    expect(real.removed).toHaveLength(1);
    expect(c.localFiles.listForAsset(a.id).map((f) => path.basename(f.path))).toEqual(['kept.png', 'k']);
    expect(c.localFiles.listForAsset(b.id)).toHaveLength(1);
    expect(c.localFiles.pruneMissing().removed.map((r) => path.basename(r.path))).toEqual(['bob-gone.png']);
  });
});
