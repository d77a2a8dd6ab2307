import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../../test/helpers.js';

const PROJECT = 'a0000000-0000-4000-8000-000000000001';

describe('lineage', () => {
  it('names the operation that made an asset, its inputs, and what was made from it', () => {
    const c = memoryCatalog();
    const image = c.assets.record({ profile: 'ana', flowMediaId: 'img-1', kind: 'image', flowProjectId: PROJECT });
    const make = c.operations.start({ profile: 'ana', command: 'image generate', prompt: 'a fox' });
    c.assets.link(make.id, image.id, 'output');
    c.localFiles.record({ assetId: image.id, path: '/out/img-1.jpg', bytes: 10 });

    const video = c.assets.record({ profile: 'ana', flowMediaId: 'vid-1', kind: 'video', flowProjectId: PROJECT });
    const i2v = c.operations.start({ profile: 'ana', command: 'video generate', mode: 'i2v' });
    c.assets.link(i2v.id, image.id, 'seed_start');
    c.assets.link(i2v.id, video.id, 'output');

    expect(c.lineage.madeBy(image.id)).toBe(make.id);
    expect(c.lineage.madeBy(video.id)).toBe(i2v.id);
    const linked = c.lineage.assetsOf(i2v.id);
    expect(linked.map((l) => [l.role, l.mediaId, l.fileCount])).toEqual([
      ['output', 'vid-1', 0],
      ['seed_start', 'img-1', 1],
    ]);
    const derived = c.lineage.derivedFrom(image.id);
    expect(derived).toHaveLength(1);
    expect(derived[0]).toMatchObject({
      operationId: i2v.id,
      command: 'video generate',
      mode: 'i2v',
      role: 'seed_start',
    });
    expect(derived[0]?.outputs.map((o) => o.mediaId)).toEqual(['vid-1']);
    expect(c.lineage.derivedFrom(video.id)).toEqual([]);
    expect(c.lineage.madeBy(999)).toBeUndefined();
    c.close();
  });
});
