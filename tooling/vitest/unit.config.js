// `npm run test:unit` (tooling/scripts/testUnit.mjs): the unit tests of every package — the files
// UNIT_TESTS names, beside the code — as one vitest project per package, in one run on this Node.
import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BASE_TEST_OPTIONS, UNIT_TESTS, reportTo } from './preset.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Every workspace package with code beside its tests (packages/*, apps/*). */
export const UNIT_PACKAGES = ['packages', 'apps']
  .flatMap((group) => fs.readdirSync(path.join(root, group)).map((name) => path.join(root, group, name)))
  .filter((dir) => fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'src')))
  .sort();

/** Unit tests that must see modules no other file loaded (named `*.isolated.test.ts`). */
const ISOLATED = '**/*.isolated.test.ts';

export default defineConfig({
  test: {
    ...BASE_TEST_OPTIONS,
    // Unit tests share nothing but modules, so a worker imports each module once for all its
    // files (measured on 2 cores: 15 s instead of 45 s). Each package's own run (`npm test`'s
    // first line) still isolates every file, so a test that leans on another file's state fails there.
    isolate: false,
    ...reportTo('unit'),
    projects: [
      ...UNIT_PACKAGES.map((dir) => ({
        extends: true,
        test: {
          name: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name,
          root: dir,
          include: UNIT_TESTS,
          exclude: [...configDefaults.exclude, ISOLATED],
        },
      })),
      // A test of module state itself (what a fresh import loads) runs in modules of its own.
      {
        extends: true,
        test: { name: 'isolated', root, include: [`{packages,apps}/*/src/${ISOLATED}`], isolate: true },
      },
    ],
  },
});
