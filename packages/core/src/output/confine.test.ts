import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf, toProblem } from '@gflow/errors';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomicWrite.js';
import { confineToOutputDir } from './confine.js';

let out: string;
beforeEach(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-out-'));
});

const problemOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { exit: exitCodeOf(error), problem: toProblem(error) };
  }
  throw new Error('expected a refusal');
};

describe('confineToOutputDir', () => {
  it('takes a relative value relative to the output dir', () => {
    expect(confineToOutputDir(out, 'shots/a.png', { parameter: 'output', kind: 'file' })).toBe(
      path.join(out, 'shots/a.png'),
    );
    expect(confineToOutputDir(out, path.join(out, 'b.png'), { parameter: 'output', kind: 'file' })).toBe(
      path.join(out, 'b.png'),
    );
  });

  it.each(['../escape.png', '/etc/passwd', 'a/../../x.png', 'file:///etc/passwd', 's3://bucket/x'])(
    'refuses %s with a 400 Invalid Output',
    (value) => {
      const { exit, problem } = problemOf(() => confineToOutputDir(out, value, { parameter: 'output', kind: 'file' }));
      expect(problem.status).toBe(400);
      expect(problem.title).toBe('Invalid Output');
      expect(exit).toBe(2);
      expect(problem.detail).not.toContain(out);
    },
  );

  it('refuses a symlink that leads out', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-outside-'));
    fs.symlinkSync(outside, path.join(out, 'link'));
    expect(() => confineToOutputDir(out, 'link/x.png', { parameter: 'output', kind: 'file' })).toThrow(
      /through a link/,
    );
    expect(() => confineToOutputDir(out, 'link', { parameter: 'out_dir', kind: 'dir' })).toThrow(/through a link/);
  });

  it('refuses a directory as a file output, including the output dir itself', () => {
    fs.mkdirSync(path.join(out, 'sub'));
    expect(() => confineToOutputDir(out, 'sub', { parameter: 'output', kind: 'file' })).toThrow(/names a directory/);
    expect(() => confineToOutputDir(out, '.', { parameter: 'output', kind: 'file' })).toThrow(/names a directory/);
    expect(() => confineToOutputDir(out, 'new/', { parameter: 'output', kind: 'file' })).toThrow(/names a directory/);
    expect(confineToOutputDir(out, 'sub', { parameter: 'out_dir', kind: 'dir' })).toBe(path.join(out, 'sub'));
  });
});

describe('writeFileAtomic', () => {
  it('writes the bytes and leaves no temp file', async () => {
    const target = path.join(out, 'deep/dir/file.bin');
    await writeFileAtomic(target, new Uint8Array([1, 2, 3]));
    expect([...fs.readFileSync(target)]).toEqual([1, 2, 3]);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['file.bin']);
  });

  it('leaves neither target nor temp when the rename fails', async () => {
    const target = path.join(out, 'taken');
    fs.mkdirSync(path.join(target, 'nonempty'), { recursive: true });
    await expect(writeFileAtomic(target, new Uint8Array([1]))).rejects.toThrow();
    expect(fs.readdirSync(out)).toEqual(['taken']);
  });
});
