// The API reference (issue 26): docs/api/ is generated from the TSDoc of the published entries'
// indexes, every export has a doc comment, and the pages are not stale.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_ENTRIES, apiPages, collectApi, renderPage } from '../scripts/apiDoc.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const api = collectApi();

describe('docs/api', () => {
  it('documents every export of @gflow/core, @gflow/core/sandbox and @gflow/errors', () => {
    expect(api.entries.map((e) => e.specifier)).toEqual(['@gflow/core', '@gflow/core/sandbox', '@gflow/errors']);
    for (const entry of api.entries) expect(entry.exports.length, entry.specifier).toBeGreaterThan(5);
    expect(api.undocumented, 'add a /** doc comment */ to each export named here').toEqual([]);
  });

  it("is what the generator writes from today's sources (run node tooling/scripts/apiDoc.mjs)", () => {
    for (const { page, text } of apiPages(api)) expect(fs.readFileSync(path.join(root, page), 'utf8'), page).toBe(text);
  });

  it('shows the typed run and the sandbox entry', () => {
    const core = api.entries.find((e) => e.specifier === '@gflow/core');
    expect(core.exports.map((x) => x.name)).toEqual(expect.arrayContaining(['createGflow', 'Gflow', 'OperationInput']));
    const sandbox = apiPages(api).find((p) => p.page === 'docs/api/core-sandbox.md');
    expect(sandbox.text).toContain('## openSandbox');
    expect(sandbox.text).toContain('const { gflow } = await openSandbox();');
  });
});

describe('apiDoc.mjs', () => {
  it('names an export without a doc comment, and documents the rest', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-apidoc-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'src', 'index.ts'),
      [
        '/** Adds two numbers. */',
        'export function add(a: number, b: number): number { return a + b; }',
        'export const bare = 1;',
        '/** A point. */',
        'export interface Point {',
        '  /** Across. */',
        '  readonly x: number;',
        '  /** Only ours. @internal */',
        '  readonly secret: string;',
        '}',
      ].join('\n'),
    );
    const entries = [{ specifier: 'fixture', index: 'src/index.ts', page: 'docs/api/fixture.md', about: 'A fixture.' }];
    const fixture = collectApi(entries, dir);
    expect(fixture.undocumented).toEqual(['fixture: bare (src/index.ts)']);
    const page = renderPage(fixture.entries[0]);
    expect(page).toContain('add(a: number, b: number): number');
    expect(page).toContain('Adds two numbers.');
    expect(page).toContain('| `readonly x: number` | Across. |');
    expect(page).not.toContain('secret');
    expect(API_ENTRIES.every((e) => fs.existsSync(path.join(root, e.index)))).toBe(true);
  });
});
