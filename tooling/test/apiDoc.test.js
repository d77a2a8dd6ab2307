// The API reference (issue 26): docs/api/ is generated from the TSDoc of the published entries'
// indexes, every export has a doc comment, and the pages are not stale.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_ENTRIES, OPERATIONS_PAGE, apiPages, collectApi, operationsPage, renderPage } from '../scripts/apiDoc.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const api = collectApi();

describe('docs/api', () => {
  it('documents every export of @gflow/core, @gflow/core/sandbox, @gflow/core/testing and @gflow/errors', () => {
    expect(api.entries.map((e) => e.specifier)).toEqual([
      '@gflow/core',
      '@gflow/core/sandbox',
      '@gflow/core/testing',
      '@gflow/errors',
    ]);
    for (const entry of api.entries) expect(entry.exports.length, entry.specifier).toBeGreaterThanOrEqual(5);
    expect(api.undocumented, 'add a /** doc comment */ to each export named here').toEqual([]);
  });

  it("is what the generator writes from today's sources (run node tooling/scripts/apiDoc.mjs)", async () => {
    for (const { page, text } of [...apiPages(api), await operationsPage()])
      expect(fs.readFileSync(path.join(root, page), 'utf8'), page).toBe(text);
  });

  it("shows each operation's input and output as tables from its zod schemas (issue 42)", async () => {
    const { text } = await operationsPage();
    expect(OPERATIONS_PAGE).toBe('docs/api/operations.md');
    for (const name of ['generateImage', 'generateBatch', 'listModels', 'waitTask'])
      expect(text).toMatch(new RegExp(`^## ${name}$`, 'm'));
    const image = text.slice(text.indexOf('## generateImage'), text.indexOf('## generateVideo'));
    expect(image).toMatch(/^\| `prompt` \| string \| yes \|/m);
    expect(image).toMatch(/^\| `aspect` \| "9:16" \\\| "16:9"/m);
    expect(image).toMatch(/^\| `count` \| integer 1–4 \| {2}\| `1` \|/m);
    expect(image).toMatch(/^\| `tools\[\]\.name` \| string \| yes \|/m);
    expect(image).toContain('**Output**');
    expect(image).toMatch(/^\| `files` \| string\[\] \|/m);
    // No type cut short, as a printed TypeScript type would be.
    expect(text).not.toContain('... ');
  });

  it('names nothing that is not public: no gflow.catalog, no internal classes (issue 42)', () => {
    for (const { page, text } of apiPages(api))
      expect(text, page).not.toMatch(/gflow\.catalog|CatalogLoader|UsageRecorder|RuntimeServices|SessionPool/);
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
