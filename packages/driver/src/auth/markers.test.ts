import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MARKER, STRATEGY_MARKER, accountLocalPart, readProfileMarkers, removeProfileMarkers, writeProfileMarkers } from './markers.js';

describe('profile markers', () => {
  it('writes both markers owner-only and reads them back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gflow-markers-'));
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
    await writeProfileMarkers(dir, 'ada@example.com', 'internal');
    expect(await readProfileMarkers(dir)).toEqual({ account: 'ada@example.com', strategy: 'internal' });
    for (const name of [ACCOUNT_MARKER, STRATEGY_MARKER]) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    await removeProfileMarkers(dir);
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
  });
  it('derives the first-login profile name from the local part', () => {
    expect(accountLocalPart('Ada.Lovelace@example.com')).toBe('ada.lovelace');
    expect(accountLocalPart('a+b c@x.org')).toBe('a-b-c');
    expect(accountLocalPart('@x.org')).toBe('default');
  });
});
