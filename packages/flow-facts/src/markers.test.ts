import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_MARKER,
  STRATEGY_MARKER,
  loginStrategyOf,
  readProfileMarkers,
  readProfileMarkersSync,
} from './markers.js';

describe('profile markers', () => {
  it('reads both markers, trimmed; missing or empty is null', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gflow-markers-'));
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
    expect(readProfileMarkersSync(dir)).toEqual({ account: null, strategy: null });
    writeFileSync(join(dir, ACCOUNT_MARKER), 'ada@example.com\n');
    writeFileSync(join(dir, STRATEGY_MARKER), '  \n');
    expect(await readProfileMarkers(dir)).toEqual({ account: 'ada@example.com', strategy: null });
    writeFileSync(join(dir, STRATEGY_MARKER), 'chrome\n');
    expect(readProfileMarkersSync(dir)).toEqual({ account: 'ada@example.com', strategy: 'chrome' });
    expect(await readProfileMarkers(join(dir, 'missing'))).toEqual({ account: null, strategy: null });
  });

  it('knows the two login strategies only', () => {
    expect(['chrome', 'internal', 'firefox', null].map(loginStrategyOf)).toEqual([
      'chrome',
      'internal',
      undefined,
      undefined,
    ]);
  });
});
