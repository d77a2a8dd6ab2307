import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_ONLY, layeringViolation } from '../eslint/layering.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = ['packages', 'apps'].flatMap((group) =>
  fs.existsSync(path.join(root, group))
    ? fs.readdirSync(path.join(root, group)).map((d) => path.join(root, group, d))
    : [],
);
const manifests = [...dirs, path.join(root, 'tests-e2e')]
  .filter((d) => fs.existsSync(path.join(d, 'package.json')))
  .map((d) => [path.relative(root, d), d]);

describe('declared dependencies follow the layering table', () => {
  it.each(manifests)('%s', (_name, dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const problems = Object.keys(pkg.dependencies ?? {})
      .map((dep) => layeringViolation(pkg.name, dep))
      .filter(Boolean);
    expect(problems).toEqual([]);
  });
});

describe('the test kit is a devDependency only (docs/TESTING.md)', () => {
  it('knows the test-only packages', () => {
    expect(TEST_ONLY).toEqual(['@gflow/testkit']);
  });

  it.each(manifests)('%s never lists a test-only package as a dependency', (_name, dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const runtime = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
    ];
    expect(runtime.filter((dep) => TEST_ONLY.includes(dep))).toEqual([]);
  });
});
