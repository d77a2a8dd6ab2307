import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../../test/helpers.js';

const A = { sha256: 'a'.repeat(64), bytes: 1234 };

describe('uploads memory', () => {
  it('finds an upload by profile, project and content only; a newer upload replaces it; forget drops it', () => {
    const c = memoryCatalog();
    c.uploads.record({ profile: 'alice', projectId: 'p1', ...A, mediaId: 'm1', displayName: 'hero-1a2b3c4d.png' });
    expect(c.uploads.find('alice', 'p1', A)).toMatchObject({ mediaId: 'm1', displayName: 'hero-1a2b3c4d.png' });
    expect(c.uploads.find('alice', 'p2', A)).toBeUndefined();
    expect(c.uploads.find('bob', 'p1', A)).toBeUndefined();
    expect(c.uploads.find('alice', 'p1', { ...A, bytes: 1235 })).toBeUndefined();
    c.uploads.record({ profile: 'alice', projectId: 'p1', ...A, mediaId: 'm2', displayName: 'hero-9.png' });
    expect(c.uploads.find('alice', 'p1', A)?.mediaId).toBe('m2');
    expect(c.uploads.byMediaId('alice', 'm2')).toMatchObject({ projectId: 'p1', sha256: A.sha256 });
    c.uploads.touch('alice', 'p1', A);
    c.uploads.forget('alice', 'p1', A);
    expect(c.uploads.find('alice', 'p1', A)).toBeUndefined();
    c.close();
  });
});
