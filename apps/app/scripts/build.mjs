#!/usr/bin/env node
// Builds the gflow binary's bundle: apps/app/dist/main.js plus lazily loaded
// chunks (esbuild, ESM, code splitting at every dynamic import). The launcher
// (bin/gflow.js) runs it while every source it was built from still has the
// mtime recorded in dist/build.json, and otherwise runs the sources through tsx.
//
// Why a bundle: through tsx every start transpiles and resolves hundreds of
// modules (zod alone is ~300 files); one bundle with chunks loads in a few ms.
//   node apps/app/scripts/build.mjs            build
//   node apps/app/scripts/build.mjs --check    exit 1 when dist is missing or stale
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { distState } from '../bin/distState.js';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(appDir, '../..');
const outdir = path.join(appDir, 'dist');
const log = (msg) => process.stderr.write(`[build] ${msg}\n`);

/** Files the sources read at run time (relative to their own URL), copied to dist/ws/<same path>. */
const RUNTIME_FILES = [
  'packages/catalog/migrations',
  'packages/fleet/migrations',
  'packages/flow-sim/assets',
  'docs/KNOWN_ISSUES.md',
  'apps/app/package.json',
  'packages/mcp/package.json',
];

/**
 * Files of dependencies the sources read at run time, copied to dist/ws/<to> (a path with no
 * node_modules, which the tarball leaves out): the MCP App page inlines the ext-apps View SDK,
 * which packages/mcp/src/app/resultViewHtml.ts reads beside itself in the bundle.
 */
const RUNTIME_COPIES = [
  {
    from: 'packages/mcp/node_modules/@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js',
    to: 'packages/mcp/src/app/ext-apps-app-with-deps.js',
  },
];

/** Native addons and Playwright stay outside the bundle (loaded from node_modules when needed). */
const EXTERNAL = ['better-sqlite3', 'playwright-core', 'playwright-core/*'];

const toPosix = (p) => p.split(path.sep).join('/');

/** `node_modules/.pnpm/zod@4/node_modules/zod/v4/x.js` → `zod`; `packages/core/src/x.ts` → `@gflow/core`. */
function packageOf(input) {
  const nm = input.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = input.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? input);
  }
  const ws = /^(packages|apps)\/([^/]+)\//.exec(toPosix(input));
  if (!ws) return input;
  return ws[1] === 'apps' && ws[2] === 'gflow' ? '@gflow/app' : `@gflow/${ws[2]}`;
}

/**
 * Workspace sources find their files (migrations, simulator assets, docs,
 * package.json) relative to `import.meta.url`. In a chunk that URL is the
 * chunk's, so each use is rewritten to the URL the source file would have
 * under dist/ws/ (its path in the repository), and the files they read are
 * copied there (RUNTIME_FILES): dist/ is self-contained, so the package can
 * ship it alone.
 * Zod's locales: only English is used; the other ~40 (300 KB) are left out.
 */
const workspacePlugin = {
  name: 'gflow-workspace',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.resolve(args.resolveDir, args.path), namespace: 'zod-locales-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};\n`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(repoRoot + path.sep) || args.path.includes(`${path.sep}node_modules${path.sep}`))
        return undefined;
      let contents = await fs.promises.readFile(args.path, 'utf8');
      const rel = JSON.stringify(`ws/${toPosix(path.relative(repoRoot, args.path))}`);
      contents = contents.replaceAll('import.meta.url', `new URL(${rel}, import.meta.url).href`);
      contents = contents.replaceAll('import.meta.dirname', `__gflowDirname(new URL(${rel}, import.meta.url))`);
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Node's built-in modules cost start time the command may never use (measured with
 * `process.moduleLoadList` and apps/app/bench/cliStart.bench.ts): importing `node:crypto`,
 * `node:child_process` or `node:tty` loads them and everything they require, a few ms each. So in
 * the bundle, a workspace source's import of one of these becomes a module of functions that load
 * the built-in on their first call (`process.getBuiltinModule`, Node ≥ 22.3; the launcher refuses
 * older lines first), each keeping its `util.promisify.custom`. Classes and non-function values are
 * not exported: a source that imports one fails the build ("No matching export") rather than
 * loading the module eagerly unseen. Dependencies under node_modules keep their own imports.
 */
const promisifyCustom = Symbol.for('nodejs.util.promisify.custom');

function lazyBuiltinModule(name) {
  const lines = [`let m;`, `const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(name)}));`];
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(name)))) {
    if (typeof d.value !== 'function' || /^[A-Z]/.test(key) || !/^[a-zA-Z_$][\w$]*$/.test(key)) continue;
    lines.push(`export function ${key}(...args) { return load().${key}(...args); }`);
    if (typeof d.value[promisifyCustom] === 'function')
      lines.push(
        `Object.defineProperty(${key}, Symbol.for('nodejs.util.promisify.custom'), { get: () => load().${key}[Symbol.for('nodejs.util.promisify.custom')] });`,
      );
  }
  return lines.join('\n');
}

const lazyBuiltinsPlugin = {
  name: 'gflow-lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(crypto|child_process|tty)$/ }, (args) =>
      args.importer.startsWith(repoRoot + path.sep) && !args.importer.includes(`${path.sep}node_modules${path.sep}`)
        ? { path: args.path, namespace: 'gflow-lazy-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'gflow-lazy-builtin' }, (args) => ({
      contents: lazyBuiltinModule(args.path),
      loader: 'js',
    }));
  },
};

export async function buildGflow() {
  const started = Date.now();
  const staging = `${outdir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [path.join(appDir, 'src', 'main.ts')],
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // esbuild's __require helper (CommonJS dependencies) needs a module-scope `require` in every
    // chunk, so that one is a banner; the dirname helper goes only where it is used. The require is
    // made on first call: most chunks never call it, and making one per chunk (a Module and its
    // node_modules paths, import.meta) costs start time.
    banner: {
      js: "import { createRequire as __gflowCreateRequire } from 'node:module'; let __gflowRequire; const require = (id) => (__gflowRequire ??= __gflowCreateRequire(import.meta.url))(id);",
    },
    inject: [path.join(appDir, 'scripts', 'bundleShims.js')],
    minifyWhitespace: true,
    minifySyntax: true,
    // No keepNames: esbuild renames only colliding identifiers (none of ours rely on a class or
    // function name), and its __name wrappers cost start time and break page callbacks
    // (packages/driver/src/pageFunctions.test.ts keeps those free of named helpers anyway).
    keepNames: false,
    legalComments: 'none',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [workspacePlugin, lazyBuiltinsPlugin],
  });
  // The launcher compares these files' mtimes with the ones recorded in build.json.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes('node_modules/') && !p.includes(':'))
    .map((p) => toPosix(path.relative(appDir, path.resolve(repoRoot, p))));
  const packageJsons = fs
    .readdirSync(path.join(repoRoot, 'packages'))
    .map((d) => `../../packages/${d}/package.json`)
    .concat(['package.json'])
    .filter((p) => fs.existsSync(path.join(appDir, p)));
  const copied = [];
  for (const rel of RUNTIME_FILES) {
    const from = path.join(repoRoot, rel);
    fs.cpSync(from, path.join(staging, 'ws', rel), { recursive: true });
    const walk = (p) => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).flatMap((n) => walk(path.join(p, n))) : [p]);
    for (const file of walk(from)) copied.push(toPosix(path.relative(appDir, file)));
  }
  for (const { from, to } of RUNTIME_COPIES) {
    fs.mkdirSync(path.dirname(path.join(staging, 'ws', to)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, from), path.join(staging, 'ws', to));
    copied.push(toPosix(path.relative(appDir, path.join(repoRoot, from))));
  }
  const files = {};
  for (const rel of [...new Set([...inputs, ...packageJsons, ...copied])].sort())
    files[rel] = fs.statSync(path.join(appDir, rel)).mtimeMs;
  // GFLOW_BUILD_METAFILE=path: esbuild's metafile, for size analysis (e.g. esbuild's analyzer).
  if (process.env.GFLOW_BUILD_METAFILE)
    fs.writeFileSync(process.env.GFLOW_BUILD_METAFILE, JSON.stringify(result.metafile));
  // Which packages each chunk holds, and which of our sources: tests check what a command loads
  // (`models`: no Playwright, no MCP SDK, and of the operations only its own).
  const chunks = {};
  const chunkSources = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    chunks[path.basename(out)] = [...new Set(Object.keys(meta.inputs).map(packageOf))].sort();
    chunkSources[path.basename(out)] = Object.keys(meta.inputs)
      .filter((p) => /^(packages|apps)\//.test(p))
      .sort();
  }
  const manifest = { builtAt: new Date().toISOString(), node: process.version, external: EXTERNAL, files };
  fs.writeFileSync(path.join(staging, 'build.json'), `${JSON.stringify(manifest)}\n`);
  fs.writeFileSync(path.join(staging, 'chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
  fs.writeFileSync(path.join(staging, 'chunkSources.json'), `${JSON.stringify(chunkSources, null, 1)}\n`);
  fs.writeFileSync(path.join(staging, 'package.json'), '{ "type": "module" }\n');
  // Swap in atomically enough for concurrent launchers: old dist out, new dist in.
  const old = `${outdir}.old-${process.pid}`;
  if (fs.existsSync(outdir)) fs.renameSync(outdir, old);
  fs.renameSync(staging, outdir);
  fs.rmSync(old, { recursive: true, force: true });
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  log(
    `dist/ built in ${Date.now() - started} ms: ${Object.keys(result.metafile.outputs).filter((o) => o.endsWith('.js')).length} chunks, ${(bytes / 1e6).toFixed(1)} MB, ${Object.keys(files).length} sources tracked`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--check')) {
    const state = distState(new URL('../dist/', import.meta.url));
    log(state.fresh ? 'dist/ is up to date' : `dist/ is ${state.reason}`);
    process.exit(state.fresh ? 0 : 1);
  }
  await buildGflow();
}
