import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BadParameterError,
  ReferenceNotFoundError,
  ReferenceNotOnDiskError,
  ReferenceNotUsableError,
  exitCodeOf,
  toProblem,
} from '@gflow/errors';
import { memoryCatalog, tempDir } from '../../test/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('media lookup across profiles', () => {
  it('returns every candidate with files and prompt; requireOne refuses ambiguity and lists candidates', () => {
    const c = memoryCatalog();
    const op = c.operations.start({ profile: 'alice', command: 'image t2i', prompt: 'owl' });
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'shared', kind: 'image', flowProjectId: 'pa' });
    c.assets.link(op.id, a.id, 'output');
    c.localFiles.record({ assetId: a.id, path: '/a.png', bytes: 1 });
    c.assets.record({ profile: 'bob', flowMediaId: 'shared', kind: 'image', flowProjectId: 'pb' });
    c.assets.record({ profile: 'bob', flowMediaId: 'only-bob', kind: 'video' });

    const all = c.media.lookup('shared');
    expect(all.map((m) => m.asset.profileName)).toEqual(['bob', 'alice']);
    const alice = all.find((m) => m.asset.profileName === 'alice');
    expect(alice).toMatchObject({ prompt: 'owl', files: [{ path: '/a.png' }] });

    expect(c.media.requireOne('shared', { profile: 'alice' }).asset.id).toBe(a.id);
    expect(c.media.requireOne('only-bob').asset.kind).toBe('video');
    let ambiguous: unknown;
    try {
      c.media.requireOne('shared');
    } catch (error) {
      ambiguous = error;
    }
    expect(ambiguous).toBeInstanceOf(BadParameterError);
    expect(toProblem(ambiguous)['candidates']).toEqual([
      { profile: 'bob', project_id: 'pb', kind: 'image' },
      { profile: 'alice', project_id: 'pa', kind: 'image' },
    ]);
    expect(() => c.media.requireOne('nope')).toThrow(ReferenceNotFoundError);
    expect(c.media.lookup('nope')).toEqual([]);
    expect(() => c.media.lookup('../x')).toThrow(BadParameterError);
  });
});

describe('reference resolution', () => {
  function setup() {
    const c = memoryCatalog();
    const file = path.join(tmp.dir, 'ref.png');
    writeFileSync(file, 'image-bytes');
    const sha256 = createHash('sha256').update('image-bytes').digest('hex');
    const onDisk = c.assets.record({ profile: 'alice', flowMediaId: 'on-disk', kind: 'image' });
    c.localFiles.record({ assetId: onDisk.id, path: file, bytes: 11, sha256 });
    c.assets.record({ profile: 'alice', flowMediaId: 'named', kind: 'image', displayName: 'hero-a1b2.png' });
    c.assets.record({ profile: 'alice', flowMediaId: 'bare', kind: 'image' });
    c.assets.record({ profile: 'alice', flowMediaId: 'clip', kind: 'video', displayName: 'clip.mp4' });
    const tampered = c.assets.record({ profile: 'alice', flowMediaId: 'tampered', kind: 'image' });
    c.localFiles.record({ assetId: tampered.id, path: file, bytes: 11, sha256: 'f'.repeat(64) });
    return { c, file };
  }

  it('image refs: enriched when catalogued, pass through (null) when unknown', async () => {
    const { c, file } = setup();
    const ref = await c.references.imageRef('on-disk', { profile: 'alice' });
    expect(ref?.localFile?.file.path).toBe(file);
    expect(ref?.localFile?.sha256Checked).toBe(true);
    expect((await c.references.imageRef('named', { profile: 'alice' }))?.displayName).toBe('hero-a1b2.png');
    expect(await c.references.imageRef('unknown-uuid', { profile: 'alice' })).toBeNull();
    expect(await c.references.imageRef('on-disk', { profile: 'bob' })).toBeNull();
  });

  it('frames: Not Found for unknown, Not Usable for videos and for images with no name and no verified file', async () => {
    const { c } = setup();
    expect((await c.references.frame('named', { profile: 'alice' })).displayName).toBe('hero-a1b2.png');
    expect((await c.references.frame('on-disk', { profile: 'alice' })).localFile).not.toBeNull();
    await expect(c.references.frame('unknown', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotFoundError);
    await expect(c.references.frame('clip', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotUsableError);
    await expect(c.references.frame('bare', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotUsableError);
    await expect(c.references.frame('tampered', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotUsableError);
    const error = await c.references.frame('unknown', { profile: 'alice' }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(32);
  });

  it('r2v refs need a verified local file: Not On Disk otherwise (hash mismatch included)', async () => {
    const { c, file } = setup();
    expect((await c.references.onDisk('on-disk', { profile: 'alice' })).localFile.file.path).toBe(file);
    await expect(c.references.onDisk('named', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotOnDiskError);
    await expect(c.references.onDisk('tampered', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotOnDiskError);
    expect(
      (await c.references.onDisk('tampered', { profile: 'alice', checkSha256: false })).localFile.sha256Checked,
    ).toBe(false);
    await expect(c.references.onDisk('unknown', { profile: 'alice' })).rejects.toBeInstanceOf(ReferenceNotFoundError);
  });
});
