// An embedder's install (issue 26): the published set (@gflow/core and what it needs at run time)
// packed as npm would publish it, installed into a fresh project outside the monorepo — its own
// package.json, no workspace, no TypeScript loader — with the third-party dependencies from a
// loopback registry. Then: docs/LIBRARY.md's first example runs as written with plain `node` and
// makes a sandbox image in real Chromium; a TypeScript consumer type-checks against the shipped
// .d.ts under moduleResolution nodenext and bundler, and a wrong argument or a misspelled operation
// fails to compile. Issue 42: core without the sandbox installs within a size budget (the simulator
// is an optional peer), its declarations reach no drizzle, SQLite or Playwright types, and the
// example unit test of docs/LIBRARY.md runs on @gflow/core/testing, each test within its timeout.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packLibs, publishedPackages } from '@gflow/tooling/packLibs';
import { browserSetting } from '@gflow/testkit/browser';
import { REPO_ROOT, makeHome } from '@gflow/testkit/cli';
import { type CommandRun, dependencyClosure, npmEnv, runCommand, startPackageRegistry } from '@gflow/testkit/registry';

/** Runs a command in `cwd` to completion without blocking the loopback registry. */
const run = (command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CommandRun> =>
  runCommand(command, args, { cwd, env });

/** docs/LIBRARY.md's first ```js block: the sandbox example. */
function libraryFirstExample(): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'LIBRARY.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block, 'docs/LIBRARY.md has a ```js example').toBeTruthy();
  return block!;
}

/** docs/LIBRARY.md's example unit test on the fake runtime (the ```ts block that starts `// cover.test.ts`). */
function libraryUnitTestExample(): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'LIBRARY.md'), 'utf8');
  const block = /```ts\n(\/\/ cover\.test\.ts[\s\S]*?)```/.exec(doc)?.[1];
  expect(block, 'docs/LIBRARY.md has the cover.test.ts example').toBeTruthy();
  return block!;
}

/** What an install put in node_modules: every package (nested ones included) and the bytes of its files. */
function installed(dir: string): { packages: string[]; bytes: number } {
  const packages: string[] = [];
  let bytes = 0;
  const sizeOf = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const p = path.join(at, entry.name);
      if (entry.isDirectory()) sizeOf(p);
      else if (entry.isFile()) bytes += fs.statSync(p).size;
    }
  };
  const walk = (nodeModules: string): void => {
    if (!fs.existsSync(nodeModules)) return;
    for (const name of fs.readdirSync(nodeModules)) {
      if (name.startsWith('.')) continue;
      const scoped = name.startsWith('@')
        ? fs.readdirSync(path.join(nodeModules, name)).map((n) => `${name}/${n}`)
        : [name];
      for (const pkg of scoped) {
        packages.push(pkg);
        walk(path.join(nodeModules, pkg, 'node_modules'));
      }
    }
  };
  walk(path.join(dir, 'node_modules'));
  sizeOf(path.join(dir, 'node_modules'));
  return { packages: packages.sort(), bytes };
}

/**
 * Core's install without the sandbox, at most (issue 42). The packages: ours (core, errors,
 * flow-facts, catalog, lease, driver), zod, smol-toml, drizzle-orm, better-sqlite3 (and its
 * node-addon-api) and playwright-core. The bytes: measured at 62.8 MB — better-sqlite3 27.8
 * (prebuilt binaries for eight platforms and SQLite's sources), playwright-core 14.0, drizzle-orm
 * 10.5, zod 6.2 — so the 25 MB needs the catalog on node:sqlite without drizzle; this
 * budget holds today's install from growing.
 */
const BUDGET = { packages: 12, megabytes: 66 };

/** The fields of a tarball's package.json these tests read. */
interface TarManifest extends Record<string, unknown> {
  readonly dependencies?: Record<string, string>;
  readonly exports: Record<string, { readonly types: string; readonly default: string }>;
}

const tarManifest = (file: string): TarManifest =>
  JSON.parse(spawnSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }).stdout) as TarManifest;
const tarList = (file: string): string[] =>
  spawnSync('tar', ['-tzf', file], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/^package\//, ''));

const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const set = publishedPackages();
const VERSION = set[0]!.pkg['version'] as string;

let where: string;
let project: string;
let tarballs: string[];
let registry: Awaited<ReturnType<typeof startPackageRegistry>>;
let install: CommandRun;

beforeAll(async () => {
  where = makeHome('embedder');
  tarballs = packLibs(path.join(where, 'tarballs'));
  // Every third-party package the tarballs name, found where the workspace installed it for that
  // package, and @types/node for the TypeScript consumer.
  const thirdParty = set.flatMap(({ dir, pkg }) =>
    dependencyClosure(
      dir,
      Object.keys((pkg['dependencies'] ?? {}) as Record<string, string>).filter((n) => !n.startsWith('@gflow/')),
    ),
  );
  registry = await startPackageRegistry([
    ...new Set([...thirdParty, ...dependencyClosure(REPO_ROOT, ['@types/node'])]),
  ]);
  project = path.join(where, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'an-embedder', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  install = await run('npm', ['install', ...tarballs], project, npmEnv(registry.url, where));
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (where) fs.rmSync(where, { recursive: true, force: true });
});

describe('the published set, packed', () => {
  it('is core and what it needs at run time, one version, in dependency order', () => {
    const names = set.map(({ pkg }) => pkg['name'] as string);
    expect(names.at(-1)).toBe('@gflow/core');
    expect(new Set(names)).toEqual(
      new Set([
        '@gflow/errors',
        '@gflow/flow-facts',
        '@gflow/catalog',
        '@gflow/lease',
        '@gflow/driver',
        '@gflow/flow-sim',
        '@gflow/fleet',
        '@gflow/core',
      ]),
    );
    expect(tarballs).toHaveLength(names.length);
  });

  it.each(set.map(({ pkg }, i) => [pkg['name'] as string, i] as const))(
    '%s: dist (JS, .d.ts, maps), README, LICENSE; no sources or tests; real ranges, the set version inside',
    (_name, i) => {
      const file = tarballs[i]!;
      const manifest = tarManifest(file);
      const files = tarList(file);
      expect(files).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'LICENSE',
          'dist/index.js',
          'dist/index.d.ts',
          'dist/index.js.map',
        ]),
      );
      expect(
        files.filter((f) => f.startsWith('src/') || /\.test\.(js|d\.ts)$/.test(f) || f.includes('/testing/')),
      ).toEqual([]);
      expect(JSON.stringify(manifest)).not.toMatch(/workspace:|catalog:/);
      expect(manifest).toMatchObject({
        version: VERSION,
        type: 'module',
        license: 'MIT',
        engines: { node: '^22.19.0 || >=24' },
        repository: { type: 'git' },
      });
      expect(manifest['scripts']).toBeUndefined();
      expect(manifest['devDependencies']).toBeUndefined();
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {}))
        if (dep.startsWith('@gflow/')) expect(range, dep).toBe(VERSION);
        else if (dep === 'playwright-core') expect(range, dep).toMatch(/^\d+\.\d+\.\d+$/);
        else expect(range, dep).toMatch(/^\^\d+\.\d+\.\d+$/);
      // Every export resolves to a file in the tarball, with its types.
      for (const [sub, target] of Object.entries(manifest.exports)) {
        expect(files, sub).toContain(target.default.replace(/^\.\//, ''));
        expect(files, sub).toContain(target.types.replace(/^\.\//, ''));
      }
    },
  );
});

describe("core's manifest (issue 42)", () => {
  it('ships no @types as a runtime dependency, and names the simulator, the muxer for stitching and the YAML reader for storyboard files as optional peers only', () => {
    for (const [i, { pkg }] of set.entries()) {
      const deps = Object.keys(tarManifest(tarballs[i]!).dependencies ?? {});
      expect(
        deps.filter((d) => d.startsWith('@types/')),
        pkg['name'] as string,
      ).toEqual([]);
    }
    const core = tarManifest(tarballs[set.findIndex(({ pkg }) => pkg['name'] === '@gflow/core')]!);
    expect(Object.keys(core.dependencies ?? {})).not.toContain('@gflow/flow-sim');
    // Stitching's muxer is an optional peer too: its @types/dom-* would weigh on every install, and
    // stitchVideos names the package to install when it is missing.
    // So is the YAML reader: a program passes a storyboard to makeMovie as an object; only a file needs it.
    // And the fleet's backend (PostgreSQL, pg-boss): only a fleet loads it.
    expect(core['peerDependencies']).toEqual({
      '@gflow/flow-sim': VERSION,
      '@gflow/fleet': VERSION,
      mediabunny: expect.stringMatching(/^\^?1\./),
      yaml: expect.stringMatching(/^\^?2\./),
    });
    expect(core['peerDependenciesMeta']).toEqual({
      '@gflow/flow-sim': { optional: true },
      '@gflow/fleet': { optional: true },
      mediabunny: { optional: true },
      yaml: { optional: true },
    });
    expect(core.exports['./testing']).toEqual({ types: './dist/fake/index.d.ts', default: './dist/fake/index.js' });
  });
});

/** publint's findings on a tarball, down to suggestions, as its own sentences. */
async function lint(file: string): Promise<string[]> {
  const bytes = fs.readFileSync(file);
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
  return messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`);
}

describe('publint', () => {
  it.each(set.map(({ pkg }, i) => [pkg['name'] as string, i] as const))(
    'finds nothing in %s, not even a suggestion',
    async (_name, i) => {
      expect(await lint(tarballs[i]!)).toEqual([]);
    },
  );

  it('does find a broken package (an export to a file the tarball lacks)', async () => {
    const dir = path.join(where, 'broken');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'broken', version: '1.0.0', type: 'module', exports: { '.': './dist/missing.js' } }),
    );
    fs.writeFileSync(path.join(dir, 'index.js'), 'export const x = 1;\n');
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' });
    expect(packed.status, packed.stderr).toBe(0);
    const file = path.join(dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    expect((await lint(file)).join('\n')).toMatch(/^error: .*missing\.js/m);
  });
});

describe('a fresh project outside the monorepo', () => {
  it('installs the tarballs with npm, third-party packages from the loopback registry only', () => {
    expect(install.status, install.stderr).toBe(0);
    expect(fs.existsSync(path.join(project, 'node_modules', '@gflow', 'core', 'dist', 'index.js'))).toBe(true);
    expect(registry.asked).toEqual(expect.arrayContaining(['/zod', '/better-sqlite3', '/playwright-core']));
    // The runtime's declarations show the library's members, not what only gflow's surfaces use (@internal).
    const gflowTypes = fs.readFileSync(path.join(project, 'node_modules/@gflow/core/dist/runtime/gflow.d.ts'), 'utf8');
    expect(gflowTypes).toMatch(/^\s+run<N extends NameOf<O>>\(/m);
    expect(gflowTypes).toMatch(/^\s+runByName\(name: string, input: unknown/m);
    expect(gflowTypes).not.toMatch(/^\s+(readonly )?(sessions|limiter|jobs|startToken)\b/m);
    // No TypeScript tooling came with it.
    for (const tool of ['typescript', 'tsx', 'ts-node'])
      expect(fs.existsSync(path.join(project, 'node_modules', tool)), tool).toBe(false);
  });

  it("runs docs/LIBRARY.md's first example as written with plain node: operations, models, a sandbox image", async () => {
    expect(install.status).toBe(0);
    fs.writeFileSync(path.join(project, 'app.mjs'), libraryFirstExample());
    const home = path.join(where, 'home');
    const result = await run(process.execPath, ['app.mjs'], project, {
      PATH: process.env['PATH'] ?? '',
      HOME: where,
      GFLOW_CLI_HOME: home,
      ...browserSetting(),
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/^operations: .*\bgenerateImage\b.*\blistModels\b/m);
    expect(result.stdout).toMatch(/^image models: .*\bnano2\b/m);
    const line = /^completed \[\s*'([^']+)'/m.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    const file = line![1]!;
    expect(file.startsWith(path.join(home, 'sandbox'))).toBe(true);
    expect(fs.readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(result.stderr).toContain('gflow sandbox: using the built-in Flow simulator');
  }, 180_000);

  it('keeps the root import light: a static operation loads no Playwright, SQLite or simulator', async () => {
    expect(install.status).toBe(0);
    const probe = `import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
const { createGflow } = await import('@gflow/core');
const gflow = createGflow();
await gflow.run('listModels', {});
await gflow.close();
console.log(JSON.stringify(seen));
`;
    fs.writeFileSync(path.join(project, 'probe.mjs'), probe);
    const result = await run(process.execPath, ['probe.mjs'], project, {
      PATH: process.env['PATH'] ?? '',
      HOME: where,
      GFLOW_CLI_HOME: path.join(where, 'probe-home'),
    });
    expect(result.status, result.stderr).toBe(0);
    const loaded = JSON.parse(result.stdout) as string[];
    expect(loaded.filter((url) => url.includes('/node_modules/@gflow/core/dist/')).length).toBeGreaterThan(10);
    // (The catalog's claimant subpath is a few lines of naming, no SQLite: core's runtime uses it.)
    expect(
      loaded.filter((url) =>
        /playwright|better-sqlite3|drizzle-orm|@gflow\/(driver|flow-sim)\/|@gflow\/catalog\/dist\/index\.js/.test(url),
      ),
    ).toEqual([]);
  });

  describe('a TypeScript consumer of the shipped .d.ts', () => {
    const consumer = `import { createGflow, orThrow, type Gflow, type GenerationResult } from '@gflow/core';
import { openSandbox } from '@gflow/core/sandbox';
import { createFakeGflow } from '@gflow/core/testing';
import { RateLimitError, exitCodeOf, isGflowError } from '@gflow/errors';

const gflow = createGflow({ surface: 'library' });
const models = await gflow.run('listModels', {});
const status: 'ok' = models.status;
const image: GenerationResult = await gflow.run('generateImage', { prompt: 'a fox', aspect: '16:9', count: 2 });
const same = await gflow.run('gflow_generate_image', { prompt: 'a fox' });
const files: string[] | undefined = same.files ?? undefined;
// A union on status: completed has its files and ids (no \`!\`), a failure its problem document.
let made: string[] = [];
let mediaId = '';
if (image.status === 'completed') {
  made = image.files;
  mediaId = image.flow_media_id;
}
let problemType = '';
if (image.status === 'failed' || image.status === 'cancelled') problemType = image.error.type;
// The typed facade: each method is its operation's run.
const viaFacade: GenerationResult = await gflow.images.generate({ prompt: 'a fox' }, { throwOnFailure: true });
const extended = await gflow.videos.extend({ media_id: mediaId, prompt: 'it keeps running' });
const extendedFile: string | undefined = extended.status === 'completed' ? extended.files[0] : undefined;
const dynamic: unknown = await gflow.runByName(String(process.argv[2]), { anything: true });
const retryable: boolean = new RateLimitError('slow down').retryable;
const problem: { type: string; status: number } = new RateLimitError('slow down').toJSON();
const thrown = await orThrow(gflow.run('generateVideo', { prompt: 'a fox runs' }, { throwOnFailure: true }));
const fake = createFakeGflow({ throwOnFailure: true });
const asRuntime: Gflow = fake;
await asRuntime.run('getCredits', {});
const stitched: string = (await fake.videos.stitch({ inputs: ['a.mp4', 'b.mp4'], output: 'ab.mp4' })).path;
const batch = await fake.images.batch({ items: [{ prompt: 'a fox' }, { prompt: 'a hare' }] });
const chained = await fake.videos.chain({ links: [{ prompt: 'a fox' }, { prompt: 'it runs' }] });
const movie = await fake.videos.movie({ storyboard: { scenes: [{ prompt: 'a fox' }] } });
const video = await fake.videos.generate({ prompt: 'a fox runs' });
{
  await using disposable = createGflow();
  await disposable.run('listModels', {});
}
const { gflow: sandboxed } = await openSandbox({ env: { GFLOW_CLI_HOME: '/tmp/x' } });
try {
  await sandboxed.close();
} catch (error) {
  if (isGflowError(error)) process.exitCode = exitCodeOf(error);
}
export { status, image, files, made, problemType, viaFacade, extendedFile, dynamic, retryable, problem, thrown };
export { stitched, batch, chained, movie, video };
`;
    const wrong = `import { createGflow } from '@gflow/core';

const gflow = createGflow();
await gflow.run('generateImage', { prompt: 'a fox', aspect: 'sideways' });
await gflow.run('generateImgae', { prompt: 'a fox' });
const image = await gflow.images.generate({ prompt: 'a fox' });
const files: string[] = image.files;
if (image.status === 'completed') console.log(image.fiels);
`;
    const tsconfig = (moduleResolution: 'nodenext' | 'bundler', file: string, skipLibCheck = true) => ({
      compilerOptions: {
        target: 'ES2023',
        module: moduleResolution === 'nodenext' ? 'nodenext' : 'esnext',
        moduleResolution,
        strict: true,
        noEmit: true,
        skipLibCheck,
        types: ['node'],
      },
      files: [file],
    });
    // Plain diagnostics (--pretty false): a CI runner may force colours, and the tests read the lines.
    const tsc = (config: string, extra: readonly string[] = []) =>
      spawnSync(process.execPath, [TSC, '-p', config, '--pretty', 'false', ...extra], {
        cwd: project,
        encoding: 'utf8',
      });

    beforeAll(async () => {
      // The consumer's own toolchain: @types/node (the compiler is the workspace's).
      const types = await run('npm', ['install', '--no-save', '@types/node'], project, npmEnv(registry.url, where));
      expect(types.status, types.stderr).toBe(0);
      fs.writeFileSync(path.join(project, 'consumer.ts'), consumer);
      fs.writeFileSync(path.join(project, 'wrong.ts'), wrong);
      for (const resolution of ['nodenext', 'bundler'] as const) {
        fs.writeFileSync(
          path.join(project, `tsconfig.${resolution}.json`),
          JSON.stringify(tsconfig(resolution, 'consumer.ts')),
        );
        fs.writeFileSync(
          path.join(project, `tsconfig.strict.${resolution}.json`),
          JSON.stringify(tsconfig(resolution, 'consumer.ts', false)),
        );
        fs.writeFileSync(
          path.join(project, `tsconfig.wrong.${resolution}.json`),
          JSON.stringify(tsconfig(resolution, 'wrong.ts')),
        );
      }
    }, 120_000);

    it.each(['nodenext', 'bundler'])('type-checks under moduleResolution %s', (resolution) => {
      const checked = tsc(`tsconfig.${resolution}.json`);
      expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
    });

    it.each(['nodenext', 'bundler'])(
      'checks clean with skipLibCheck off under %s, and reaches no drizzle, SQLite or Playwright declaration',
      (resolution) => {
        const checked = tsc(`tsconfig.strict.${resolution}.json`);
        expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
        const files = tsc(`tsconfig.strict.${resolution}.json`, ['--listFilesOnly']).stdout.split('\n');
        expect(files.filter((f) => f.includes('/node_modules/@gflow/core/')).length).toBeGreaterThan(20);
        expect(
          files.filter((f) =>
            /node_modules\/(drizzle-orm|better-sqlite3|playwright-core|@types\/better-sqlite3)\//.test(f),
          ),
        ).toEqual([]);
      },
    );

    it.each(['nodenext', 'bundler'])(
      'refuses a wrong aspect, a misspelled operation and an unchecked or misspelled result member under moduleResolution %s',
      (resolution) => {
        const checked = tsc(`tsconfig.wrong.${resolution}.json`);
        expect(checked.status).not.toBe(0);
        expect(checked.stdout).toMatch(/^wrong\.ts\(4,\d+\): error TS\d+/m);
        expect(checked.stdout).toContain('"sideways"');
        expect(checked.stdout).toMatch(/^wrong\.ts\(5,\d+\): error TS\d+: Argument of type '"generateImgae"'/m);
        // Without narrowing, files may be absent; after it, a misspelled member does not compile.
        expect(checked.stdout).toMatch(/^wrong\.ts\(7,\d+\): error TS2322: .*undefined/m);
        expect(checked.stdout).toMatch(/^wrong\.ts\(8,\d+\): error TS\d+: Property 'fiels' does not exist/m);
      },
    );
  });
});

describe('core without the sandbox, in a project of its own (issue 42)', () => {
  let lean: string;
  let leanInstall: CommandRun;
  const env = () => ({ PATH: process.env['PATH'] ?? '', HOME: where, GFLOW_CLI_HOME: path.join(where, 'lean-home') });

  beforeAll(async () => {
    lean = path.join(where, 'lean');
    fs.mkdirSync(lean);
    fs.writeFileSync(
      path.join(lean, 'package.json'),
      `${JSON.stringify({ name: 'a-lean-embedder', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    // Core alone: neither of its optional peers that are in the set (the simulator, the fleet).
    const withoutSim = tarballs.filter(
      (_file, i) => !['@gflow/flow-sim', '@gflow/fleet'].includes(set[i]!.pkg['name'] as string),
    );
    leanInstall = await run('npm', ['install', ...withoutSim], lean, npmEnv(registry.url, where));
  }, 300_000);

  it(`installs within the budget: at most ${BUDGET.packages} packages and ${BUDGET.megabytes} MB, no TLS tree, no @types`, () => {
    expect(leanInstall.status, leanInstall.stderr).toBe(0);
    const { packages, bytes } = installed(lean);
    expect(packages).toEqual(
      expect.arrayContaining([
        '@gflow/core',
        '@gflow/catalog',
        '@gflow/driver',
        'better-sqlite3',
        'playwright-core',
        'zod',
      ]),
    );
    expect(
      packages.filter((p) => /^@gflow\/(flow-sim|fleet)$|^selfsigned$|^@peculiar\/|^@types\/|^pg/.test(p)),
    ).toEqual([]);
    expect(packages.length, packages.join(' ')).toBeLessThanOrEqual(BUDGET.packages);
    expect(bytes / 1e6, packages.join(' ')).toBeLessThanOrEqual(BUDGET.megabytes);
  });

  it('openSandbox says the simulator is missing and how to install it (exit 11), no crash', async () => {
    fs.writeFileSync(
      path.join(lean, 'sandbox.mjs'),
      `import { openSandbox } from '@gflow/core/sandbox';
try { await openSandbox({ signIn: false, notify: () => {} }); } catch (error) {
  console.log(JSON.stringify({ code: error.code, exitCode: error.exitCode, message: error.message, hint: error.remediationHint }));
}
`,
    );
    const result = await run(process.execPath, ['sandbox.mjs'], lean, env());
    expect(result.status, result.stderr).toBe(0);
    const error = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(error).toMatchObject({ code: 'configuration', exitCode: 11 });
    expect(error['message']).toContain('@gflow/flow-sim, which is not installed');
    expect(error['hint']).toContain('npm install @gflow/flow-sim');
  });

  it("runs docs/LIBRARY.md's example unit test on @gflow/core/testing: each test within its 1 s timeout, no browser, SQLite or network loaded", async () => {
    fs.writeFileSync(path.join(lean, 'cover.test.ts'), libraryUnitTestExample());
    fs.writeFileSync(
      path.join(lean, 'trace.mjs'),
      `import { registerHooks } from 'node:module';
import fs from 'node:fs';
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
process.on('exit', () => fs.writeFileSync('loaded.json', JSON.stringify(seen)));
`,
    );
    const result = await run(
      process.execPath,
      ['--import', './trace.mjs', '--test', '--test-isolation=none', '--test-reporter=tap', 'cover.test.ts'],
      lean,
      env(),
    );
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/^# tests 2$/m);
    expect(result.stdout).toMatch(/^# pass 2$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
    const loaded = JSON.parse(fs.readFileSync(path.join(lean, 'loaded.json'), 'utf8')) as string[];
    expect(loaded.some((url) => url.includes('/node_modules/@gflow/core/dist/fake/'))).toBe(true);
    expect(
      loaded.filter((url) =>
        /playwright|better-sqlite3|drizzle-orm|@gflow\/(driver|flow-sim)\/|@gflow\/catalog\/dist\/index\.js/.test(url),
      ),
    ).toEqual([]);
  });
});
