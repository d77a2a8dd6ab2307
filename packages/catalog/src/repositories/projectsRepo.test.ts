import { describe, expect, it } from 'vitest';
import { BadParameterError, SecurityError } from '@gflow/errors';
import { memoryCatalog } from '../../test/helpers.js';

describe('projects', () => {
  it('upserts by (profile, flow project id), keeps the title when none is given, creates the profile', () => {
    const c = memoryCatalog();
    const first = c.projects.upsert({ profile: 'alice', flowProjectId: 'p-1', title: 'Cats' });
    const again = c.projects.upsert({ profile: 'alice', flowProjectId: 'p-1' });
    expect(again.id).toBe(first.id);
    expect(again.title).toBe('Cats');
    expect(again.createdAt).toBe(first.createdAt);
    expect(again.updatedAt > first.updatedAt).toBe(true);
    expect(c.projects.upsert({ profile: 'alice', flowProjectId: 'p-1', title: 'Dogs' }).title).toBe('Dogs');
    expect(c.projects.upsert({ profile: 'bob', flowProjectId: 'p-1' }).id).not.toBe(first.id);
    expect(c.profiles.get('alice')?.firstSeenAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('refuses ids that are not Flow ids and profiles that are paths', () => {
    const c = memoryCatalog();
    expect(() => c.projects.upsert({ profile: 'alice', flowProjectId: '../etc' })).toThrow(BadParameterError);
    expect(() => c.projects.upsert({ profile: 'alice', flowProjectId: 'x'.repeat(129) })).toThrow(BadParameterError);
    expect(() => c.projects.upsert({ profile: '../alice', flowProjectId: 'p' })).toThrow(SecurityError);
    expect(() => c.projects.upsert({ profile: 'a b', flowProjectId: 'p' })).toThrow(BadParameterError);
    expect(c.projects.upsert({ profile: 'bob@example.com', flowProjectId: 'p' }).id).toBeGreaterThan(0);
  });

  it('lists newest first with image/video counts and limit+1 paging', () => {
    const c = memoryCatalog();
    for (let i = 0; i < 5; i++)
      c.projects.upsert({ profile: i % 2 ? 'bob' : 'alice', flowProjectId: `p-${i}`, title: `T${i}` });
    c.assets.record({ profile: 'alice', flowMediaId: 'm1', kind: 'image', flowProjectId: 'p-4' });
    c.assets.record({ profile: 'alice', flowMediaId: 'm2', kind: 'image', flowProjectId: 'p-4' });
    c.assets.record({ profile: 'alice', flowMediaId: 'm3', kind: 'video', flowProjectId: 'p-4' });
    c.assets.record({ profile: 'bob', flowMediaId: 'm4', kind: 'image', flowProjectId: 'p-4' }); // bob's own p-4

    const page1 = c.projects.list({ limit: 2 });
    expect(page1.items.map((p) => p.projectId)).toEqual(['p-4', 'p-4']);
    expect(page1).toMatchObject({ count: 2, offset: 0, hasMore: true, nextOffset: 2 });
    const alice4 = page1.items.find((p) => p.profile === 'alice');
    expect(alice4).toMatchObject({ title: 'T4', imageCount: 2, videoCount: 1 });
    expect(page1.items.find((p) => p.profile === 'bob')).toMatchObject({ title: null, imageCount: 1, videoCount: 0 });

    const last = c.projects.list({ limit: 2, offset: 4 });
    expect(last).toMatchObject({ count: 2, hasMore: false, nextOffset: null });
    expect(c.projects.list({ limit: 10 }).count).toBe(6);
    expect(c.projects.list({ profile: 'bob' }).items.map((p) => p.projectId)).toEqual(['p-4', 'p-3', 'p-1']);
  });

  it('lists what data sync reads: projects without a title or with unnamed assets, newest first (issue 41)', () => {
    const c = memoryCatalog();
    c.projects.upsert({ profile: 'alice', flowProjectId: 'p-untitled' });
    c.projects.upsert({ profile: 'alice', flowProjectId: 'p-done', title: 'Done' });
    c.assets.record({
      profile: 'alice',
      flowMediaId: 'm-named',
      kind: 'image',
      flowProjectId: 'p-done',
      displayName: 'A fox',
    });
    c.projects.upsert({ profile: 'alice', flowProjectId: 'p-unnamed', title: 'Trip' });
    c.assets.record({ profile: 'alice', flowMediaId: 'm-1', kind: 'video', flowProjectId: 'p-unnamed' });
    c.assets.record({
      profile: 'alice',
      flowMediaId: 'm-2',
      kind: 'image',
      flowProjectId: 'p-unnamed',
      displayName: '',
    });
    c.projects.upsert({ profile: 'bob', flowProjectId: 'p-bob' });
    expect(c.projects.toSync('alice', { limit: 50 })).toEqual([
      { projectId: 'p-unnamed', title: 'Trip', unnamed: ['m-1', 'm-2'] },
      { projectId: 'p-untitled', title: null, unnamed: [] },
    ]);
    expect(c.projects.toSync('alice', { limit: 50, all: true }).map((p) => p.projectId)).toEqual([
      'p-unnamed',
      'p-done',
      'p-untitled',
    ]);
    expect(c.projects.toSync('alice', { limit: 1 })).toHaveLength(1);
    expect(c.projects.toSync('alice', { limit: 50, projectId: 'p-done' })).toEqual([]);
    expect(c.projects.toSync('alice', { limit: 50, projectId: 'p-done', all: true })).toEqual([
      { projectId: 'p-done', title: 'Done', unnamed: [] },
    ]);
  });

  it('clamps limit to 1..1000 and refuses a negative offset', () => {
    const c = memoryCatalog();
    c.projects.upsert({ profile: 'alice', flowProjectId: 'p' });
    expect(c.projects.list({ limit: 0 }).limit).toBe(1);
    expect(c.projects.list({ limit: 5000 }).limit).toBe(1000);
    expect(() => c.projects.list({ offset: -1 })).toThrow(BadParameterError);
  });

  it('lists profiles with their activity', () => {
    const c = memoryCatalog();
    c.projects.upsert({ profile: 'alice', flowProjectId: 'p' });
    c.operations.start({ profile: 'alice', command: 'image t2i' });
    c.profiles.touch('bob', '/home/x/profile_bob');
    const list = c.profiles.list();
    expect(list.map((p) => p.name)).toEqual(['bob', 'alice']);
    expect(list[1]).toMatchObject({ projectCount: 1, assetCount: 0, operationCount: 1 });
    expect(list[0]?.profileDir).toBe('/home/x/profile_bob');
  });
});
