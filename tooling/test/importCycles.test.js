// No package has an import cycle among its own modules, counting type-only
// imports and dynamic import() (issue 18): a circle, even of types, means two
// modules cannot be understood, or changed, one without the other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, importSpecifiers, packageImportGraph } from './importGraph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const packages = ['packages', 'apps', '.']
  .flatMap((group) =>
    group === '.'
      ? ['tooling', 'tests-e2e']
      : fs.existsSync(path.join(root, group))
        ? fs.readdirSync(path.join(root, group)).map((d) => path.join(group, d))
        : [],
  )
  .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')) && fs.existsSync(path.join(root, dir, 'src')));

describe('no import cycle inside any package', () => {
  it.each(packages)('%s', (dir) => {
    const pkgDir = path.join(root, dir);
    const rel = (file) => path.relative(path.join(pkgDir, 'src'), file);
    const cycles = findCycles(packageImportGraph(pkgDir)).map(
      (cycle) =>
        `${cycle.map(rel).join(' → ')} (a circle of ${cycle.members.length} modules: ${cycle.members.map(rel).join(', ')})`,
    );
    expect(cycles, `import cycles in ${dir}/src:\n${cycles.join('\n')}`).toEqual([]);
  });
});

describe('the cycle finder', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-cycles-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** A throwaway package with these source files. */
  function fixture(name, files) {
    const dir = path.join(tmp, name);
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: `@fixture/${name}`, exports: { '.': './src/index.ts', './sub': './src/sub.ts' } }),
    );
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'src', file)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', file), text);
    }
    return (cycles) => cycles.map((c) => c.map((f) => path.relative(path.join(dir, 'src'), f)).join(' → '));
  }

  it('reads every import form, and nothing in comments or strings', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export type * as D from './d.js';",
      "const e = await import('./e.js');",
      "type F = typeof import('./f.js');",
      "// import { g } from './g.js';",
      'const h = "import { h } from \'./h.js\'";',
    ].join('\n');
    expect(importSpecifiers(text).sort()).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js']);
  });

  it('finds a type-only circle through three modules, and a dynamic import closing one', () => {
    const rel = fixture('circle', {
      'runtime/runtime.ts': "import type { Op } from '../ops/op.js';\nexport class Runtime { op?: Op }\n",
      'ops/op.ts': "import type { Pool } from '../jobs/pool.js';\nexport interface Op { pool: Pool }\n",
      'jobs/pool.ts':
        "import type { Runtime } from '../runtime/runtime.js';\nexport interface Pool { runtime: Runtime }\n",
      'lazy/a.ts': "export const load = () => import('./b.js');\n",
      'lazy/b.ts': "import { load } from './a.js';\nexport const again = load;\n",
      'leaf.ts': "import { load } from './lazy/a.js';\nexport const x = load;\n",
    });
    const cycles = rel(findCycles(packageImportGraph(path.join(tmp, 'circle'))));
    expect(cycles.sort()).toEqual([
      'jobs/pool.ts → runtime/runtime.ts → ops/op.ts → jobs/pool.ts',
      'lazy/a.ts → lazy/b.ts → lazy/a.ts',
    ]);
  });

  it('resolves index files and self-references, and passes a tree', () => {
    const rel = fixture('tree', {
      'index.ts': "export { sub } from './sub.js';\nexport { leaf } from './dir';\n",
      'sub.ts': "import { leaf } from './dir/index.js';\nexport const sub = leaf;\n",
      'dir/index.ts': 'export const leaf = 1;\n',
    });
    expect(rel(findCycles(packageImportGraph(path.join(tmp, 'tree'))))).toEqual([]);
    const back = fixture('self', {
      'index.ts': "export { sub } from './sub.js';\n",
      'sub.ts': "import type { x } from '@fixture/self';\nexport const sub = 1;\n",
    });
    expect(back(findCycles(packageImportGraph(path.join(tmp, 'self'))))).toEqual(['index.ts → sub.ts → index.ts']);
  });
});

describe('no dependency cycle between workspace packages', () => {
  it('dependencies and devDependencies among @gflow packages form no circle', () => {
    const manifests = ['packages', 'apps']
      .flatMap((group) => fs.readdirSync(path.join(root, group)).map((d) => path.join(root, group, d, 'package.json')))
      .concat(['tooling', 'tests-e2e'].map((d) => path.join(root, d, 'package.json')))
      .filter((file) => fs.existsSync(file))
      .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
    const names = new Set(manifests.map((m) => m.name));
    expect(names.size).toBeGreaterThan(10);
    const graph = new Map(
      manifests.map((m) => [
        m.name,
        Object.keys({ ...m.dependencies, ...m.devDependencies }).filter((d) => names.has(d)),
      ]),
    );
    const cycles = [];
    const visit = (name, trail) => {
      if (trail.includes(name)) return void cycles.push([...trail.slice(trail.indexOf(name)), name].join(' → '));
      for (const dep of graph.get(name) ?? []) visit(dep, [...trail, name]);
    };
    for (const name of names) visit(name, []);
    expect([...new Set(cycles)]).toEqual([]);
  });
});
