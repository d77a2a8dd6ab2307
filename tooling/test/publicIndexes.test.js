// The internal packages' indexes export what other packages use, nothing more (issue 18): a name
// no other package imports is an implementation detail, and its own tests import its module.
// @gflow/core's root and sandbox entries and @gflow/errors are the embeddable library's documented
// API (issue 26: docs/api/, every export with a doc comment, tooling/test/apiDoc.test.js) and
// @gflow/flow-facts is the table of facts: they are not held to this. @gflow/core/surfaces, what
// gflow's own surfaces build on, is.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './importGraph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** [package dir, its index, the entry's subpath ('' for the root)] */
const INTERNAL = [
  ['packages/driver', 'src/index.ts', ''],
  ['packages/catalog', 'src/index.ts', ''],
  ['packages/lease', 'src/index.ts', ''],
  ['packages/mcp', 'src/index.ts', ''],
  ['packages/cli', 'src/index.ts', ''],
  ['packages/flow-sim', 'src/index.ts', ''],
  ['packages/core', 'src/surfaces.ts', '/surfaces'],
];

/** The names a package's src/index.ts re-exports. */
export function indexExports(text) {
  const names = [];
  ts.createSourceFile('index.ts', text, ts.ScriptTarget.Latest, false).forEachChild((node) => {
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause))
      for (const e of node.exportClause.elements) names.push(e.name.text);
  });
  return names;
}

const everyFile = ['packages', 'apps', 'tests-e2e', 'tooling'].flatMap((group) => sourceFiles(path.join(root, group)));

describe('internal package indexes export only what other packages use', () => {
  it.each(INTERNAL)('%s %s', (dir, index, subpath) => {
    const name = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).name + subpath;
    const exported = indexExports(fs.readFileSync(path.join(root, dir, index), 'utf8'));
    expect(exported.length).toBeGreaterThan(0);
    const users = everyFile
      .filter((f) => !f.startsWith(path.join(root, dir) + path.sep))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .filter((t) => t.includes(`'${name}'`) || t.includes(`'${name}/`));
    const unused = exported.filter((n) => !users.some((t) => new RegExp(`\\b${n}\\b`).test(t)));
    expect(
      unused,
      `${name} exports names no other package uses: import them from their module in the package's own code`,
    ).toEqual([]);
  });

  it('reads every named export form', () => {
    expect(
      indexExports("export { a, type B } from './a.js';\nexport type { C as D } from './c.js';\nexport const e = 1;\n"),
    ).toEqual(['a', 'B', 'D']);
  });
});
