import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../test/helpers.js';

describe('catalog', () => {
  it('transaction() is one unit: a throw rolls back every repository write inside it', () => {
    const c = memoryCatalog();
    expect(() =>
      c.transaction(() => {
        c.projects.upsert({ profile: 'alice', flowProjectId: 'p-1' });
        c.assets.record({ profile: 'alice', flowMediaId: 'm-1', kind: 'image', flowProjectId: 'p-1' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(c.projects.list().items).toEqual([]);
    expect(c.profiles.list()).toEqual([]);
    const id = c.transaction(() => c.assets.record({ profile: 'alice', flowMediaId: 'm-1', kind: 'image' }).id);
    expect(c.assets.get(id)?.flowMediaId).toBe('m-1');
  });

  it('close() is idempotent and exposes the options it was opened with', () => {
    const c = memoryCatalog({ historyPrompts: 'redacted' });
    expect(c.historyPrompts).toBe('redacted');
    expect(c.path).toBe(':memory:');
    c.close();
    c.close();
    expect(c.database.open).toBe(false);
  });
});
