// The kinds of test, by file name (tooling/vitest/preset.js, docs/TESTING.md), held to what the
// files do: a unit test (src/**/*.test.ts) starts no browser and no child process; a suite that
// reaches Chromium, itself or through a helper, is named *.browser.test.ts; regressions are
// test/regression/issue-<n>-<slug>.test.ts; the old suffixes and folders are gone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './importGraph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const packageDirs = ['packages', 'apps']
  .flatMap((group) => fs.readdirSync(path.join(root, group)).map((d) => path.join(root, group, d)))
  .concat([path.join(root, 'tests-e2e')])
  .filter((dir) => fs.existsSync(path.join(dir, 'package.json')));
const rel = (file) => path.relative(root, file);

/** The value imports of a file (`import type` and all-type specifier lists left out). */
export function valueImports(text, fileName = 'module.ts') {
  const out = [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteralLike(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteralLike(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Imports that start a browser or a child process. */
const PROCESS_OR_BROWSER =
  /^(node:)?child_process$|^playwright-core$|^@gflow\/testkit\/(browser|cli|sandbox)$|^@gflow\/flow-sim\/testing$/;
/** Imports that reach Chromium (the harnesses do). */
const BROWSER = /^playwright-core$|^@gflow\/testkit\/(browser|sandbox)$|^@gflow\/flow-sim\/testing$/;

/** The value imports of `file` and of the test helpers it reaches by relative path (not the code under test in src/). */
function reachedImports(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const specifiers = valueImports(fs.readFileSync(file, 'utf8'), file);
  const out = [...specifiers];
  for (const s of specifiers) {
    if (!s.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), s).replace(/\.js$/, '.ts');
    if (fs.existsSync(target) && !target.includes(`${path.sep}src${path.sep}`))
      out.push(...reachedImports(target, seen));
  }
  return out;
}

describe('test kinds', () => {
  const all = packageDirs.flatMap((dir) => sourceFiles(dir)).filter((f) => f.endsWith('.test.ts'));

  it('finds the tests it checks', () => {
    expect(all.filter((f) => f.includes(`${path.sep}src${path.sep}`)).length).toBeGreaterThan(50);
    expect(all.filter((f) => f.endsWith('.browser.test.ts')).length).toBeGreaterThan(20);
  });

  it('a unit test (src/**/*.test.ts) imports no browser, child process or process-starting kit', () => {
    const offenders = all
      .filter((f) => path.relative(root, f).split(path.sep).includes('src'))
      .flatMap((f) =>
        reachedImports(f)
          .filter((s) => PROCESS_OR_BROWSER.test(s))
          .map((s) => `${rel(f)} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it('a suite that reaches Chromium is named *.browser.test.ts', () => {
    const offenders = all
      .filter((f) => !f.endsWith('.browser.test.ts') && !rel(f).split(path.sep).includes('src'))
      .filter((f) => reachedImports(f).some((s) => BROWSER.test(s)))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('one suffix and one regression name: no *.integration / *.contract tests, no part2 folders', () => {
    const old = all
      .filter((f) => /\.(integration|contract)\.test\.ts$/.test(f) || f.split(path.sep).includes('part2'))
      .map(rel);
    expect(old).toEqual([]);
    const regressions = all.filter((f) => f.split(path.sep).includes('regression'));
    expect(regressions.length).toBeGreaterThan(3);
    expect(
      regressions
        .filter((f) => !/^issue-\d+-[a-z0-9]+(-[a-z0-9]+)*(\.browser)?\.test\.ts$/.test(path.basename(f)))
        .map(rel),
    ).toEqual([]);
  });

  it('the checks can fail: a value import of playwright-core counts, a type import does not', () => {
    expect(
      valueImports("import type { Page } from 'playwright-core';\nimport { type Browser } from 'playwright-core';\n"),
    ).toEqual([]);
    expect(valueImports("import { chromium } from 'playwright-core';\nexport { x } from './x.js';\n")).toEqual([
      'playwright-core',
      './x.js',
    ]);
    expect(
      valueImports("const m = await import('node:child_process');\n").some((s) => PROCESS_OR_BROWSER.test(s)),
    ).toBe(true);
  });
});
