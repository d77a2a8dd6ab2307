// tryNamedLock in one process: one holder at a time, released by release(), bad names refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadParameterError, SecurityError } from '@gflow/errors';
import { readNamedLockHolder, tryNamedLock } from './namedLock.js';

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

  it('records its holder beside the lock when asked, says what it does, and empties the record on release', () => {
    expect(readNamedLockHolder(locksDir, 'worker-alice')).toBeUndefined();
    const lock = tryNamedLock(locksDir, 'worker-alice', { profileName: 'alice', surface: 'worker' });
    expect(readNamedLockHolder(locksDir, 'worker-alice')).toMatchObject({
      pid: process.pid,
      profileName: 'alice',
      surface: 'worker',
    });
    lock?.setActivity({ state: 'busy', doing: 'task 6f1c' });
    expect(readNamedLockHolder(locksDir, 'worker-alice')).toMatchObject({ activity: 'busy', doing: 'task 6f1c' });
    const record = path.join(locksDir, 'worker-alice.holder.json');
    expect(fs.statSync(record).mode & 0o777).toBe(0o600);
    lock?.release();
    expect(readNamedLockHolder(locksDir, 'worker-alice')).toBeUndefined();
    // A lock taken without a record leaves none.
    const plain = tryNamedLock(locksDir, 'worker-alice');
    expect(readNamedLockHolder(locksDir, 'worker-alice')).toBeUndefined();
    plain?.release();
  });

  it('reading the holder never follows a symlinked lock path, and refuses a bad name', () => {
    expect(() => readNamedLockHolder(locksDir, '../escape')).toThrow(BadParameterError);
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    fs.symlinkSync(path.join(home, 'elsewhere'), path.join(locksDir, 'worker-eve.lock'));
    expect(() => readNamedLockHolder(locksDir, 'worker-eve')).toThrow(SecurityError);
  });
});
