// Functions the driver sends into the page (page.evaluate, evaluateAll, waitForFunction, …) are
// serialised with toString(). The gflow binary runs through esbuild with keepNames (tsx, and the
// bundle), which wraps every named inner function in `__name(fn, "name")`: a helper that does not
// exist in the page, so such a callback throws ReferenceError there. This test transforms every
// driver source the way they do and refuses `__name(` inside any page callback.
import fs from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const PAGE_CALLS = /\.(?:evaluate|evaluateAll|evaluateHandle|waitForFunction|addInitScript|\$eval|\$\$eval)\(/g;

/** The text of the call's arguments: from its `(` to the matching `)`, skipping string literals. */
function argumentsAt(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < code.length && code[i] !== c; i++) if (code[i] === '\\') i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

/** Page callbacks in `source` (after an esbuild keepNames transform) that reference __name. */
export function pageCallbacksUsingName(source: string): string[] {
  const { code } = transformSync(source, { loader: 'ts', keepNames: true, format: 'esm', target: 'es2022' });
  const bad: string[] = [];
  for (const m of code.matchAll(PAGE_CALLS)) {
    const args = argumentsAt(code, (m.index ?? 0) + m[0].length - 1);
    if (args.includes('__name(')) bad.push(`${m[0]}${args.slice(1, 120)}…`);
  }
  return bad;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('page callbacks survive esbuild keepNames', () => {
  it('finds a named helper inside a page callback (the check can fail)', () => {
    const source = `export const f = (page: any) => page.locator('x').evaluateAll((els: any[]) => { const ids = (n: string) => n.split(','); return els.map((e) => ids(e.id)); });`;
    expect(pageCallbacksUsingName(source)).toHaveLength(1);
    expect(
      pageCallbacksUsingName(`export const g = (page: any) => page.evaluate(() => [1, 2].map((n) => n * 2));`),
    ).toEqual([]);
  });

  it('no driver source sends a named inner function into the page', () => {
    const files = sources(path.join(import.meta.dirname));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) =>
      pageCallbacksUsingName(fs.readFileSync(file, 'utf8')).map(
        (c) => `${path.relative(import.meta.dirname, file)}: ${c}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
