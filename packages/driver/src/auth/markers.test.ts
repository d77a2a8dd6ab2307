import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNT_MARKER, STRATEGY_MARKER, readProfileMarkers } from '@gflow/flow-facts';
import { describe, expect, it } from 'vitest';
import { removeProfileMarkers, writeProfileMarkers } from './markers.js';

describe('profile markers', () => {
  it('writes both markers owner-only, as the shared readers read them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gflow-markers-'));
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
    await writeProfileMarkers(dir, 'ada@example.com', 'internal');
    expect(await readProfileMarkers(dir)).toEqual({ account: 'ada@example.com', strategy: 'internal' });
    for (const name of [ACCOUNT_MARKER, STRATEGY_MARKER])
      expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    await removeProfileMarkers(dir);
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
  });
});
