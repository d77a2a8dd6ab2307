import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectories, nearestExisting } from './makeDirectories.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mkdirs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('nearestExisting and makeDirectories', () => {
  it('names the nearest existing level and the missing ones below it, top first', () => {
    const found = nearestExisting(path.join(root, 'a', 'b', 'c'));
    expect(found?.path).toBe(root);
    expect(found?.stat.isDirectory()).toBe(true);
    expect(found?.missing).toEqual([path.join(root, 'a'), path.join(root, 'a', 'b'), path.join(root, 'a', 'b', 'c')]);
  });

  it('makes every missing level, and is a no-op on an existing directory', () => {
    const dir = path.join(root, 'x', 'y', 'z');
    makeDirectories(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(() => makeDirectories(dir)).not.toThrow();
  });

  it('a file in the way is ENOTDIR, and nothing is made under it', () => {
    const file = path.join(root, 'plain-file');
    fs.writeFileSync(file, 'x');
    expect(() => makeDirectories(path.join(file, 'sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(fs.statSync(file).isFile()).toBe(true);
  });
});
