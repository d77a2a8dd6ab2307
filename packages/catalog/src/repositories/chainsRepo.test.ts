import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../../test/helpers.js';

describe('video chains', () => {
  it('keeps a chain and its progress; newest first; an unknown id is undefined', () => {
    const c = memoryCatalog();
    const a = c.chains.create({ chainId: 'ch-a', profile: 'alice', spec: { links: 3 }, state: { links: [] } });
    expect(a).toMatchObject({ chainId: 'ch-a', profile: 'alice', status: 'running', spec: { links: 3 } });
    c.chains.create({ chainId: 'ch-b', profile: 'bob', spec: {}, state: {} });
    const done = c.chains.update('ch-a', { status: 'failed', state: { links: [{ status: 'done' }] } });
    expect(done).toMatchObject({ status: 'failed', state: { links: [{ status: 'done' }] } });
    expect(c.chains.update('ch-a', { state: { links: [] } }).status).toBe('failed');
    expect(c.chains.get('ch-a')?.state).toEqual({ links: [] });
    expect(c.chains.get('nope')).toBeUndefined();
    expect(c.chains.list({ profile: 'alice' }).map((r) => r.chainId)).toEqual(['ch-a']);
    expect(c.chains.list().length).toBe(2);
    expect(() => c.chains.update('nope', { state: {} })).toThrow(/no video chain/);
    c.close();
  });
});
