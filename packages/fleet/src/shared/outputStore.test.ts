import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MountedOutputStore } from './outputStore.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-store-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-outside-'));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('the mounted output store', () => {
  const store = new MountedOutputStore(root);
  fs.mkdirSync(path.join(root, 'images', 'd'), { recursive: true });
  const file = path.join(root, 'images', 'd', 'a.png');
  fs.writeFileSync(file, 'x');

  it('keys a file inside it by its relative path, and finds it back', async () => {
    expect(store.keyOf(file)).toBe('images/d/a.png');
    expect(store.localPath('images/d/a.png')).toBe(fs.realpathSync(file));
    await expect(store.put('images/d/a.png', file)).resolves.toBeUndefined();
  });

  it('never keys or serves what lies outside it: other dirs, .., absolute keys, symlinks out', () => {
    fs.writeFileSync(path.join(outside, 'secret.txt'), 's');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    expect(store.keyOf(path.join(outside, 'secret.txt'))).toBeUndefined();
    expect(store.keyOf(root)).toBeUndefined();
    for (const key of ['../secret.txt', '/etc/passwd', 'images/../../x', 'link.txt', 'missing.png', 'a\\..\\b'])
      expect(store.localPath(key)).toBeUndefined();
  });
});
