// One version for the published set, a changelog that names it, and tarballs that carry it
// (issue 26): the repository's own state, and the scripts that keep it so, on temp fixtures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bareImports, publishedPackages, undeclaredImports } from '../scripts/packLibs.mjs';
import { installablePackageJson, readCatalog } from '../scripts/packing.mjs';
import { changelogVersions, releaseProblems, setVersion, versionedFiles } from '../scripts/release.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A small repository: two published packages, a private one, the app, server.json, a changelog. */
function fixture(changelog = '# Changelog\n\n## Unreleased\n\n- a change\n\n## 0.1.0\n\n- first\n') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-release-'));
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  };
  write('packages/a/package.json', { name: '@gflow/a', version: '0.1.0' });
  write('packages/b/package.json', { name: '@gflow/b', version: '0.1.0', dependencies: { '@gflow/a': 'workspace:*' } });
  write('packages/kit/package.json', { name: '@gflow/kit', version: '0.0.1', private: true });
  write('apps/app/package.json', { name: '@gflow/app', version: '0.1.0' });
  write('server.json', {
    name: 'dev.gflow/gflow',
    version: '0.1.0',
    packages: [{ identifier: '@gflow/app', version: '0.1.0' }],
  });
  write('CHANGELOG.md', changelog);
  return dir;
}

describe('the repository', () => {
  it('has one version everywhere, and CHANGELOG.md names it as its newest', () => {
    expect(releaseProblems(root)).toEqual([]);
    const names = versionedFiles(root).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['@gflow/core', '@gflow/errors', '@gflow/app', 'dev.gflow/gflow']));
  });

  it('publishes core and what it needs at run time, and nothing the tests or adapters alone use', () => {
    const names = publishedPackages(root).map((p) => p.pkg.name);
    expect(names.at(-1)).toBe('@gflow/core');
    expect(names).not.toEqual(expect.arrayContaining(['@gflow/testkit']));
    for (const internal of ['@gflow/testkit', '@gflow/parity', '@gflow/mcp', '@gflow/cli'])
      expect(names).not.toContain(internal);
    // Every @gflow package core depends on is published too.
    const core = publishedPackages(root).find((p) => p.pkg.name === '@gflow/core');
    for (const dep of Object.keys(core.pkg.dependencies).filter((d) => d.startsWith('@gflow/')))
      expect(names).toContain(dep);
  });
});

describe('release.mjs', () => {
  it('sets one version in every manifest and server.json, and opens its changelog section', () => {
    const dir = fixture();
    setVersion('0.2.0', dir, '2026-12-02');
    const versions = versionedFiles(dir).map((e) => `${e.name}@${e.version}`);
    expect(versions).toEqual([
      '@gflow/a@0.2.0',
      '@gflow/b@0.2.0',
      '@gflow/app@0.2.0',
      'dev.gflow/gflow@0.2.0',
      'dev.gflow/gflow → @gflow/app@0.2.0',
    ]);
    const changelog = fs.readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain('## Unreleased\n\n## 0.2.0 (2026-12-02)\n\n- a change');
    expect(changelogVersions(changelog).versions).toEqual(['0.2.0', '0.1.0']);
    expect(releaseProblems(dir)).toEqual([]);
    // The private package keeps its own.
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'packages/kit/package.json'), 'utf8')).version).toBe('0.0.1');
  });

  it('finds a package that drifted, and a version the changelog does not have', () => {
    const dir = fixture();
    const file = path.join(dir, 'packages/b/package.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), version: '0.1.1' }));
    expect(releaseProblems(dir).join('\n')).toMatch(/one version for every published package: .*@gflow\/b 0\.1\.1/);
    const other = fixture('# Changelog\n\n## Unreleased\n\n## 0.0.9\n');
    expect(releaseProblems(other)).toEqual([
      'CHANGELOG.md has no "## 0.1.0" section',
      "CHANGELOG.md's newest version is 0.0.9, the packages' is 0.1.0",
    ]);
  });

  it('refuses a bad version, a version already released, and an empty Unreleased', () => {
    expect(() => setVersion('1.2', fixture())).toThrow('not a version');
    expect(() => setVersion('0.1.0', fixture())).toThrow('already has 0.1.0');
    expect(() => setVersion('0.2.0', fixture('# Changelog\n\n## Unreleased\n\n## 0.1.0\n'))).toThrow('is empty');
  });
});

describe('what a tarball says (packing.mjs)', () => {
  const catalog = readCatalog(
    'packages:\n  - a\n\ncatalog:\n  zod: 4.6.7\n  "@types/x": 1.2.3\n  playwright-core: 1.65.1\n\ncatalogs:\n  lint:\n    zod: 3.0.0\n',
  );

  it('resolves catalog: and workspace: to real versions, and applies publishConfig', () => {
    expect(catalog).toEqual({ zod: '4.6.7', '@types/x': '1.2.3', 'playwright-core': '1.65.1' });
    const manifest = installablePackageJson(
      {
        name: '@gflow/b',
        version: '0.3.0',
        type: 'module',
        exports: { '.': './src/index.ts' },
        files: ['dist'],
        scripts: { build: 'tsc' },
        dependencies: { '@gflow/a': 'workspace:*', zod: 'catalog:', 'playwright-core': 'catalog:', other: '^1.0.0' },
        devDependencies: { vitest: 'catalog:' },
        publishConfig: {
          access: 'public',
          exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
        },
      },
      {
        catalog,
        workspace: { '@gflow/a': '0.3.0' },
        root: {
          license: 'MIT',
          repository: { type: 'git', url: 'git+https://example.invalid/g.git' },
          engines: { node: '>=22' },
        },
        directory: 'packages/b',
      },
    );
    expect(manifest).toEqual({
      name: '@gflow/b',
      version: '0.3.0',
      license: 'MIT',
      repository: { type: 'git', url: 'git+https://example.invalid/g.git', directory: 'packages/b' },
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist'],
      engines: { node: '>=22' },
      // A library: catalog pins become caret ranges, but Playwright stays pinned (EXACT_PINS).
      dependencies: { '@gflow/a': '0.3.0', zod: '^4.6.7', 'playwright-core': '1.65.1', other: '^1.0.0' },
      publishConfig: { access: 'public' },
    });
  });

  it("keeps every catalog pin exact in the binary's tarball", () => {
    const manifest = installablePackageJson(
      { name: '@gflow/app', version: '0.3.0', dependencies: { zod: 'catalog:' } },
      { catalog, ranges: 'exact' },
    );
    expect(manifest.dependencies).toEqual({ zod: '4.6.7' });
  });

  it('refuses a workspace dependency that is not published, and a named catalog', () => {
    expect(() =>
      installablePackageJson(
        { name: '@gflow/b', dependencies: { '@gflow/kit': 'workspace:*' } },
        { catalog, workspace: {} },
      ),
    ).toThrow('@gflow/kit: "workspace:*" names a package that is not published');
    expect(() => installablePackageJson({ name: 'x', dependencies: { zod: 'catalog:lint' } }, { catalog })).toThrow(
      'cannot be resolved',
    );
  });
});

describe('what a built package imports (packLibs.mjs)', () => {
  it('reads the bare imports of built JavaScript and declarations: static, dynamic, re-exports, types', () => {
    const code = [
      "import { z } from 'zod';",
      "export { x } from '@gflow/errors';",
      "const pw = await import('playwright-core');",
      "import type { Database } from 'better-sqlite3';",
      "import sub from 'drizzle-orm/sqlite-core';",
      "import fs from 'node:fs'; import path from 'path'; import a from './a.js';",
    ].join('\n');
    expect(bareImports(code)).toEqual(['@gflow/errors', 'better-sqlite3', 'drizzle-orm', 'playwright-core', 'zod']);
  });

  it('does not read a string that says "from" or "import" as an import (a discriminated union on `from`)', () => {
    const declaration = [
      "import { z } from 'zod';",
      'export declare const start: z.ZodDiscriminatedUnion<[z.ZodObject<{}>], "from">;',
      '    kind: z.ZodLiteral<"import">;',
      'export declare const next: z.ZodLiteral<"story">;',
    ].join('\n');
    expect(bareImports(declaration)).toEqual(['zod']);
  });

  it('names an import dist/ makes that package.json does not declare', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-undeclared-'));
    fs.mkdirSync(path.join(dir, 'dist', 'x'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'index.js'), "import { z } from 'zod';\nexport * from './x/y.js';\n");
    fs.writeFileSync(path.join(dir, 'dist', 'x', 'y.d.ts'), "import type { Page } from 'playwright-core';\n");
    expect(undeclaredImports(dir, { name: '@gflow/p', dependencies: { zod: '4' } })).toEqual([
      'playwright-core (imported by dist/x/y.d.ts)',
    ]);
    expect(
      undeclaredImports(dir, {
        name: '@gflow/p',
        dependencies: { zod: '4' },
        peerDependencies: { 'playwright-core': '*' },
      }),
    ).toEqual([]);
  });
});
