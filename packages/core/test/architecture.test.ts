import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const tsx = path.resolve(import.meta.dirname, '../../../node_modules/tsx/dist/loader.mjs');

describe('the root import stays light', () => {
  it('imports @gflow/core and runs a static operation without loading Playwright, the driver or mediabunny', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-arch-'));
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        tsx,
        '--import',
        path.join(import.meta.dirname, 'fixtures/registerTrace.mjs'),
        path.join(import.meta.dirname, 'fixtures/rootImport.ts'),
        home,
      ],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('ok');
    const resolved = result.stderr.split('\n').filter((l) => l.startsWith('RESOLVED '));
    expect(resolved.length).toBeGreaterThan(20);
    expect(resolved.some((l) => l.includes('/packages/core/src/'))).toBe(true);
    expect(resolved.filter((l) => /playwright|\/packages\/driver\/|mediabunny/.test(l))).toEqual([]);
  });
});
