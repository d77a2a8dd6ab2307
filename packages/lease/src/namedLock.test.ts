// tryNamedLock in one process: one holder at a time, released by release(), bad names refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadParameterError, SecurityError } from '@gflow/errors';
import { tryNamedLock } from './namedLock.js';

let home: string;
let locksDir: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-named-lock-'));
  locksDir = path.join(home, 'locks');
});

afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe('tryNamedLock', () => {
  it('has one holder at a time; another name is independent; release frees it (idempotently)', () => {
    const first = tryNamedLock(locksDir, 'worker-alice');
    expect(first).toBeDefined();
    expect(first?.lockPath).toBe(path.join(locksDir, 'worker-alice.lock'));
    expect(fs.statSync(locksDir).mode & 0o777).toBe(0o700);
    expect(tryNamedLock(locksDir, 'worker-alice')).toBeUndefined();
    const other = tryNamedLock(locksDir, 'worker-bob');
    expect(other).toBeDefined();
    first?.release();
    first?.release();
    const again = tryNamedLock(locksDir, 'worker-alice');
    expect(again).toBeDefined();
    again?.release();
    other?.release();
  });

  it('refuses names that are not plain, and a lock path that is a symlink', () => {
    expect(() => tryNamedLock(locksDir, '../escape')).toThrow(BadParameterError);
    expect(() => tryNamedLock(locksDir, '')).toThrow(BadParameterError);
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    fs.symlinkSync(path.join(home, 'elsewhere'), path.join(locksDir, 'worker-eve.lock'));
    expect(() => tryNamedLock(locksDir, 'worker-eve')).toThrow(SecurityError);
  });
});
