// The launcher (bin/gflow.js) and the bundle it runs (scripts/build.mjs → dist/):
// when dist may run, that the bundle gives the same answers as the sources,
// and what each fast command loads (issue: `--help`, `models`, `data list`
// must not load Playwright, the MCP SDK or the catalog when they do not need it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { distState } from '../bin/distState.js';
import { GFLOW_BIN, cliEnv, makeHome } from '@gflow/testkit/cli';

const APP_DIR = path.resolve(import.meta.dirname, '..');
const DIST = path.join(APP_DIR, 'dist');

function tempDist(): { appDir: string; distUrl: URL; source: string } {
  const appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-launcher-'));
  fs.mkdirSync(path.join(appDir, 'src'));
  fs.mkdirSync(path.join(appDir, 'dist'));
  const source = path.join(appDir, 'src', 'main.ts');
  fs.writeFileSync(source, 'export {};\n');
  fs.writeFileSync(path.join(appDir, 'dist', 'main.js'), '');
  const files = { 'src/main.ts': fs.statSync(source).mtimeMs };
  fs.writeFileSync(path.join(appDir, 'dist', 'build.json'), JSON.stringify({ files }));
  return { appDir, distUrl: pathToFileURL(`${path.join(appDir, 'dist')}/`), source };
}

describe('distState', () => {
  it('is fresh when every recorded source has its recorded mtime', () => {
    const { distUrl } = tempDist();
    expect(distState(distUrl)).toEqual({ fresh: true, reason: 'up to date' });
  });

  it('is stale when a source changed or is gone, and missing without build.json', () => {
    const edited = tempDist();
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(edited.source, later, later);
    expect(distState(edited.distUrl)).toEqual({ fresh: false, reason: 'stale (src/main.ts changed)' });

    const deleted = tempDist();
    fs.rmSync(deleted.source);
    expect(distState(deleted.distUrl)).toEqual({ fresh: false, reason: 'stale (src/main.ts is gone)' });

    const unbuilt = tempDist();
    fs.rmSync(path.join(unbuilt.appDir, 'dist', 'build.json'));
    expect(distState(unbuilt.distUrl).fresh).toBe(false);

    const partial = tempDist();
    fs.rmSync(path.join(partial.appDir, 'dist', 'main.js'));
    expect(distState(partial.distUrl)).toEqual({ fresh: false, reason: 'incomplete (no main.js)' });
  });

  it('trusts an installed package (dist without sources)', () => {
    const installed = tempDist();
    fs.rmSync(path.join(installed.appDir, 'src'), { recursive: true });
    expect(distState(installed.distUrl)).toEqual({ fresh: true, reason: 'installed build' });
  });
});

interface Manifest {
  readonly chunks: Record<string, string[]>;
  readonly chunkSources: Record<string, string[]>;
  readonly files: Record<string, number>;
}

/**
 * Runs the launcher with a load hook that writes every module URL it loads to a trace file. A load
 * hook, not a resolve hook: the launcher resolves the bundle's own chunks itself (it short-circuits
 * Node's resolver), and every module is loaded whichever way it was resolved.
 */
function tracedRun(args: readonly string[], home: string): { status: number | null; stdout: string; loaded: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-trace-'));
  const trace = path.join(dir, 'trace.txt');
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(
    register,
    [
      `import fs from 'node:fs';`,
      `import { registerHooks } from 'node:module';`,
      `const trace = ${JSON.stringify(trace)};`,
      `registerHooks({ load: (url, context, next) => (fs.appendFileSync(trace, url + '\\n'), next(url, context)) });`,
      // Node's own modules as \`builtin:NAME\` (what the run made Node load beyond its bootstrap).
      `process.on('exit', () => fs.appendFileSync(trace, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin:' + m.slice(13) + '\\n').join('')));`,
    ].join('\n'),
  );
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, GFLOW_BIN, ...args], {
    env: cliEnv(home),
    encoding: 'utf8',
  });
  const loaded = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: r.status, stdout: r.stdout, loaded };
}

/** The packages a run loaded: bundle chunks mapped through build.json, plus externals by path. */
function packagesLoaded(loaded: readonly string[], manifest: Manifest): Set<string> {
  const out = new Set<string>();
  for (const url of loaded) {
    if (url.startsWith(pathToFileURL(DIST).href))
      for (const pkg of manifest.chunks[path.basename(url)] ?? []) out.add(pkg);
    const nm = /node_modules\/(@[^/]+\/[^/]+|[^/.][^/]*)\//.exec(url.replace(/.*node_modules\/\.pnpm\/[^/]+\//, ''));
    if (nm?.[1]) out.add(nm[1]);
  }
  return out;
}

describe('the bundle', () => {
  let manifest: Manifest;

  beforeAll(() => {
    // Rebuild only when stale: other test files run the binary meanwhile, and a rebuild swaps dist/ under them.
    const script = path.join(APP_DIR, 'scripts', 'build.mjs');
    if (spawnSync(process.execPath, [script, '--check']).status !== 0) {
      const build = spawnSync(process.execPath, [script], { encoding: 'utf8' });
      expect(build.status, build.stderr).toBe(0);
    }
    manifest = {
      ...(JSON.parse(fs.readFileSync(path.join(DIST, 'build.json'), 'utf8')) as Pick<Manifest, 'files'>),
      chunks: JSON.parse(fs.readFileSync(path.join(DIST, 'chunks.json'), 'utf8')) as Manifest['chunks'],
      chunkSources: JSON.parse(
        fs.readFileSync(path.join(DIST, 'chunkSources.json'), 'utf8'),
      ) as Manifest['chunkSources'],
    };
  }, 120_000);

  it('records every workspace source it was built from, and is fresh right after the build', () => {
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining(['src/main.ts', '../../packages/core/src/index.ts', '../../packages/cli/src/runCli.ts']),
    );
    expect(spawnSync(process.execPath, [path.join(APP_DIR, 'scripts', 'build.mjs'), '--check']).status).toBe(0);
  });

  it('answers like the sources (models --json, an unknown command, --help)', () => {
    const home = makeHome();
    for (const args of [
      ['models', '--json'],
      ['nope', '--json'],
      ['data', '--help'],
    ]) {
      const bundled = spawnSync(process.execPath, [GFLOW_BIN, ...args], { env: cliEnv(home), encoding: 'utf8' });
      const sources = spawnSync(process.execPath, [GFLOW_BIN, ...args], {
        env: cliEnv(home, { GFLOW_FROM_SOURCES: '1' }),
        encoding: 'utf8',
      });
      // Problem documents carry a fresh instance id per run.
      const same = (out: string): string => out.replace(/"instance": "gflow:error:[0-9a-f-]+"/g, '"instance": "…"');
      expect({ status: bundled.status, stdout: same(bundled.stdout) }).toEqual({
        status: sources.status,
        stdout: same(sources.stdout),
      });
      expect(bundled.stdout.length).toBeGreaterThan(10);
    }
  }, 60_000);

  it('--help, models and data list load neither Playwright nor the MCP SDK; --help and models not even SQLite', () => {
    const home = makeHome();
    const expectations: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
      [['--help'], ['playwright-core', '@modelcontextprotocol/server', 'hono', 'zod', 'drizzle-orm', 'better-sqlite3']],
      [
        ['models', '--json'],
        ['playwright-core', '@modelcontextprotocol/server', 'hono', 'drizzle-orm', 'better-sqlite3', '@gflow/driver'],
      ],
      [
        ['data', 'list', 'projects', '--json'],
        ['playwright-core', '@modelcontextprotocol/server', 'hono', '@gflow/driver'],
      ],
    ];
    for (const [args, forbidden] of expectations) {
      const run = tracedRun(args, home);
      expect(run.status, `${args.join(' ')}: ${run.stdout}`).toBe(0);
      expect(run.loaded, 'the launcher ran the bundle').toContain(pathToFileURL(path.join(DIST, 'main.js')).href);
      const packages = packagesLoaded(run.loaded, manifest);
      expect(packages.has('@gflow/cli'), 'the trace sees bundle chunks').toBe(true);
      for (const pkg of forbidden) expect(packages.has(pkg), `${args.join(' ')} loaded ${pkg}`).toBe(false);
    }
    // The trace can see a heavy package when it is loaded (so the checks above can fail).
    const listed = tracedRun(['data', 'list', 'projects', '--json'], home);
    expect(packagesLoaded(listed.loaded, manifest).has('better-sqlite3')).toBe(true);
  }, 60_000);

  it('models loads the one operation it runs, and neither it nor --help loads node:crypto or node:child_process (issue 45)', () => {
    const home = makeHome();
    // The modules core's registry loads its operations from (one `import('./x.js')` per entry).
    const registry = fs.readFileSync(path.resolve(APP_DIR, '../../packages/core/src/operations/registry.ts'), 'utf8');
    const operationModules = new Set(
      [...registry.matchAll(/import\('\.\/(\w+)\.js'\)/g)].map((m) => `packages/core/src/operations/${m[1]}.ts`),
    );
    expect(operationModules.size).toBeGreaterThan(20);
    const sourcesOf = (loaded: readonly string[]): Set<string> =>
      new Set(
        loaded
          .filter((url) => url.startsWith(pathToFileURL(DIST).href))
          .flatMap((url) => manifest.chunkSources[path.basename(url)] ?? []),
      );
    const models = tracedRun(['models', '--json'], home);
    expect(models.status, models.stdout).toBe(0);
    expect([...sourcesOf(models.loaded)].filter((s) => operationModules.has(s))).toEqual([
      'packages/core/src/operations/listModelsOperation.ts',
    ]);
    // Nor the generation path, nor the shared parameter schemas: its runtime reads a task's
    // envelope and the id patterns from modules of their own.
    expect(
      [...sourcesOf(models.loaded)].filter(
        (s) => s.startsWith('packages/core/src/generation/') || s === 'packages/core/src/schemas/params.ts',
      ),
    ).toEqual([]);
    for (const run of [models, tracedRun(['--help'], home)])
      for (const builtin of ['builtin:crypto', 'builtin:child_process']) expect(run.loaded).not.toContain(builtin);
    // Both checks can fail: a listing opens the catalog (its claimant token draws on node:crypto) and
    // loads its own operation's module, which the trace sees.
    const listed = tracedRun(['data', 'list', 'projects', '--json'], home);
    expect(listed.loaded).toContain('builtin:crypto');
    expect([...sourcesOf(listed.loaded)].filter((s) => operationModules.has(s)).length).toBeGreaterThan(0);
    const batchHelp = tracedRun(['image', 'batch', '--help'], home);
    expect([...sourcesOf(batchHelp.loaded)]).toContain('packages/core/src/schemas/params.ts');
  }, 60_000);
});
