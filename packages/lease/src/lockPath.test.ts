import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalProfileDir, holderPathFor, lockFileName, safeBasename } from './lockPath.js';

describe('lock file naming', () => {
  it('is <safe-basename>-<sha256(canonical dir)[:16]>.lock', () => {
    const dir = '/home/u/.local/share/gflow-cli/profile_work';
    const digest = createHash('sha256').update(dir).digest('hex').slice(0, 16);
    expect(lockFileName(dir)).toBe(`profile_work-${digest}.lock`);
    expect(holderPathFor(`/l/profile_work-${digest}.lock`)).toBe(`/l/profile_work-${digest}.holder.json`);
  });

  it('reduces the basename to safe characters and never to a hidden or empty name', () => {
    expect(safeBasename('/x/profile ünï/code')).toBe('code');
    expect(safeBasename('/x/profile ünï code')).toBe('profile__n__code');
    expect(safeBasename('/x/..hidden')).toBe('_hidden');
    expect(safeBasename('/')).toBe('profile');
    expect(safeBasename(`/x/${'a'.repeat(200)}`)).toHaveLength(48);
  });

  it('canonicalises symlinks, dot segments and missing tails', () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-lockpath-')));
    try {
      const real = path.join(home, 'profile_a');
      fs.mkdirSync(real);
      const link = path.join(home, 'link');
      fs.symlinkSync(real, link);
      expect(canonicalProfileDir(link)).toBe(real);
      expect(canonicalProfileDir(path.join(home, 'profile_a', '..', 'profile_a', '.'))).toBe(real);
      expect(canonicalProfileDir(path.join(link, 'sub', 'deeper'))).toBe(path.join(real, 'sub', 'deeper'));
      expect(lockFileName(canonicalProfileDir(link))).toBe(lockFileName(real));
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
