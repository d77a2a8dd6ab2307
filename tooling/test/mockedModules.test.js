// `npm run test:unit` shares modules between the files of a worker (isolate: false). A file that
// replaces a module (`vi.mock`, `vi.doMock`) only sees its mock when nothing loaded that module
// before it, so its result depends on the order of the files (CI's clean clone has no cache to
// order them by). Such a file is named `*.isolated.test.ts`: the unit run gives it modules of its own.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MOCKS = /\bvi\.(?:mock|doMock)\(/;

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : testFiles(full);
    return /\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The files among `files` (path → text) that mock a module without being named isolated. */
export function sharedFilesThatMock(files) {
  return Object.entries(files)
    .filter(([file, text]) => MOCKS.test(text) && !file.endsWith('.isolated.test.ts'))
    .map(([file]) => file);
}

describe('unit test files that replace a module', () => {
  it('the check finds a mock in a shared file and accepts it in an isolated one', () => {
    const text = "vi.mock('./plan.js', { spy: true });";
    expect(
      sharedFilesThatMock({ 'a/run.test.ts': text, 'a/b.isolated.test.ts': text, 'a/c.test.ts': 'vi.fn()' }),
    ).toEqual(['a/run.test.ts']);
  });

  it('every one is named *.isolated.test.ts', () => {
    const files = ['packages', 'apps']
      .flatMap((group) => fs.readdirSync(path.join(root, group)).map((name) => path.join(root, group, name, 'src')))
      .filter((dir) => fs.existsSync(dir))
      .flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const texts = Object.fromEntries(files.map((file) => [path.relative(root, file), fs.readFileSync(file, 'utf8')]));
    expect(sharedFilesThatMock(texts)).toEqual([]);
  });
});
