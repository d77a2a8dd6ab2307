import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layeringViolation } from '../eslint/layering.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = ['packages', 'apps'].flatMap((group) =>
  fs.existsSync(path.join(root, group)) ? fs.readdirSync(path.join(root, group)).map((d) => path.join(root, group, d)) : [],
);

describe('declared dependencies follow the layering table', () => {
  it.each(dirs.filter((d) => fs.existsSync(path.join(d, 'package.json'))).map((d) => [path.relative(root, d), d]))('%s', (_name, dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const problems = Object.keys(pkg.dependencies ?? {})
      .map((dep) => layeringViolation(pkg.name, dep))
      .filter(Boolean);
    expect(problems).toEqual([]);
  });
});
