import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCatalog } from '@gflow/catalog';
import { NoProfileError, exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { homeLayout } from '../home/homeLayout.js';
import { validateProfileName } from '../home/profiles.js';
import { knownProfileFilter, olderThanCutoff, profileFilter } from './catalogParams.js';

const exitOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return exitCodeOf(error);
  }
};

describe('catalog query inputs', () => {
  it('olderThanCutoff reads 90d, 24h, 30m as instants before now; anything else is exit 2', () => {
    const now = new Date('2026-04-01T12:00:00.000Z');
    expect(olderThanCutoff('90d', now)).toBe('2026-01-01T12:00:00.000Z');
    expect(olderThanCutoff('24h', now)).toBe('2026-03-31T12:00:00.000Z');
    expect(olderThanCutoff(' 30M ', now)).toBe('2026-04-01T11:30:00.000Z');
    for (const bad of ['soon', '90', 'd', '1w', '-3d', '1234567d'])
      expect(exitOf(() => olderThanCutoff(bad, now))).toBe(2);
  });

  it('profileFilter: "default" or nothing is every profile; a bad name is refused', () => {
    expect(profileFilter(undefined)).toEqual({});
    expect(profileFilter('default')).toEqual({});
    expect(profileFilter('work')).toEqual({ profile: 'work' });
    const refused = exitOf(() => profileFilter('../etc'));
    expect(refused).toBeDefined();
    expect(refused).toBe(exitOf(() => validateProfileName('../etc')));
  });

  it('knownProfileFilter: a profile of the home or of the catalog passes; another is refused with the known ones', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-known-'));
    fs.mkdirSync(path.join(home, 'profile_work'));
    const catalog = openCatalog({ path: ':memory:' });
    try {
      catalog.profiles.touch('archived');
      const runtime = { catalog, layout: homeLayout(home) };
      expect(knownProfileFilter(runtime, undefined)).toEqual({});
      expect(knownProfileFilter(runtime, 'default')).toEqual({});
      expect(knownProfileFilter(runtime, 'work')).toEqual({ profile: 'work' });
      expect(knownProfileFilter(runtime, 'archived')).toEqual({ profile: 'archived' });
      let refused: unknown;
      try {
        knownProfileFilter(runtime, 'wrok');
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(NoProfileError);
      expect(exitCodeOf(refused)).toBe(2);
      expect((refused as NoProfileError).extensions['available_profiles']).toEqual(['archived', 'work']);
    } finally {
      catalog.close();
    }
  });
});
