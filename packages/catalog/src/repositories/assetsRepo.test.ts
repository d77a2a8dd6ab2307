import { describe, expect, it } from 'vitest';
import { BadParameterError, DataIntegrityError } from '@gflow/errors';
import { memoryCatalog } from '../../test/helpers.js';

describe('assets', () => {
  it('records an asset, then merges later fields and metadata without losing earlier ones', () => {
    const c = memoryCatalog();
    const a = c.assets.record({
      profile: 'alice',
      flowMediaId: 'm-1',
      kind: 'video',
      flowProjectId: 'p-1',
      status: 'pending',
      model: 'veo-fast',
      metadata: { display_name: 'x', sync: { source: 'gflow' } },
    });
    expect(a).toMatchObject({ status: 'pending', model: 'veo-fast', durationSeconds: null });
    const b = c.assets.record({
      profile: 'alice',
      flowMediaId: 'm-1',
      kind: 'video',
      status: 'ready',
      durationSeconds: 8,
      metadata: { sync: { status: 'ok' } },
    });
    expect(b.id).toBe(a.id);
    expect(b).toMatchObject({ status: 'ready', model: 'veo-fast', durationSeconds: 8, flowProjectId: 'p-1' });
    expect(JSON.parse(b.metadataJson)).toEqual({ display_name: 'x', sync: { source: 'gflow', status: 'ok' } });
    expect(c.projects.get('alice', 'p-1')).toBeDefined();
    expect(c.assets.getByMediaId('alice', 'm-1')?.id).toBe(a.id);
    expect(c.assets.get(a.id)?.flowMediaId).toBe('m-1');
    expect(() => c.assets.record({ profile: 'alice', flowMediaId: 'bad id', kind: 'image' })).toThrow(
      BadParameterError,
    );
  });

  it('lists images newest first with the generating prompt and aggregated files', () => {
    const c = memoryCatalog();
    const op = c.operations.start({ profile: 'alice', command: 'image t2i', prompt: 'a red fox' });
    const old = c.assets.record({ profile: 'alice', flowMediaId: 'img-old', kind: 'image', flowProjectId: 'p' });
    const fresh = c.assets.record({ profile: 'alice', flowMediaId: 'img-new', kind: 'image', flowProjectId: 'p' });
    c.assets.record({ profile: 'alice', flowMediaId: 'vid', kind: 'video' });
    c.assets.link(op.id, fresh.id, 'output');
    c.assets.link(op.id, old.id, 'input');
    c.localFiles.record({ assetId: fresh.id, path: '/out/a.png', bytes: 10 });
    c.localFiles.record({ assetId: fresh.id, path: '/out/b.png', bytes: 20 });

    const page = c.assets.list({ kind: 'image' });
    expect(page.items.map((i) => i.mediaId)).toEqual(['img-new', 'img-old']);
    expect(page.items[0]).toMatchObject({
      prompt: 'a red fox',
      fileCount: 2,
      path: '/out/b.png',
      bytes: 20,
      projectId: 'p',
    });
    expect(page.items[1]).toMatchObject({ prompt: null, fileCount: 0, path: null });
    expect(c.assets.list({ kind: 'video' }).items.map((i) => i.mediaId)).toEqual(['vid']);
    expect(c.assets.list({ kind: 'image', profile: 'bob' }).items).toEqual([]);

    const copies = c.assets.list({ kind: 'image', allCopies: true });
    expect(copies.items.map((i) => [i.mediaId, i.path])).toEqual([
      ['img-new', '/out/a.png'],
      ['img-new', '/out/b.png'],
      ['img-old', null],
    ]);
    const paged = c.assets.list({ kind: 'image', allCopies: true, limit: 2 });
    expect(paged).toMatchObject({ count: 2, hasMore: true, nextOffset: 2 });
  });

  it('links are idempotent and need existing rows (foreign keys are on)', () => {
    const c = memoryCatalog();
    const op = c.operations.start({ profile: 'alice', command: 'image t2i' });
    const a = c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image' });
    c.assets.link(op.id, a.id, 'output', 0);
    c.assets.link(op.id, a.id, 'output', 3);
    expect(c.database.prepare('SELECT position FROM operation_assets').all()).toEqual([{ position: 3 }]);
    expect(() => c.assets.link(op.id, 999, 'output')).toThrow(/FOREIGN KEY/);
    expect(() => c.localFiles.record({ assetId: 999, path: '/x', bytes: 1 })).toThrow(DataIntegrityError);
  });
});
