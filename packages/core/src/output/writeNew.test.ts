import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasErrorCode } from '@gflow/errors';
import { writeNewFile } from './writeNew.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-write-new-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('writeNewFile', () => {
  it('writes a new file and leaves no temp file behind', async () => {
    const target = path.join(root, 'sub', 'a.mp4');
    await writeNewFile(target, Uint8Array.from([1, 2, 3]), false);
    expect([...fs.readFileSync(target)]).toEqual([1, 2, 3]);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['a.mp4']);
  });

  it('never replaces a file without overwrite, and replaces it with', async () => {
    const target = path.join(root, 'b.mp4');
    fs.writeFileSync(target, 'old');
    const error = await writeNewFile(target, Uint8Array.from([9]), false).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'invalid-output')).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('old');
    expect(fs.readdirSync(root).filter((f) => f.endsWith('.part'))).toEqual([]);
    await writeNewFile(target, Uint8Array.from([9]), true);
    expect([...fs.readFileSync(target)]).toEqual([9]);
  });
});
