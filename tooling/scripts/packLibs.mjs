#!/usr/bin/env node
// `npm run pack:libs`: on a supported Node, bootstraps the workspace, then builds and packs the library packages — @gflow/core and what it needs at run
// time — into tarballs an embedder installs with npm, outside this repository:
//   node tooling/scripts/packLibs.mjs [--out DIR]     (default DIR: <repo>/dist/packages)
// The published set is every package under packages/ that is not `private` (publishedPackages);
// they share one version (tooling/scripts/release.mjs sets it). For each: tsc builds dist/ (ESM,
// .d.ts, source maps; tsconfig.build.json), every bare import of dist/ is checked against the
// declared dependencies, and the tarball's package.json is written by packing.mjs (publishConfig's
// exports → dist, `workspace:` → the set's version, `catalog:` → the catalog's). Each tarball's path
// is printed on stdout, one a line, in dependency order.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bootstrap } from './bootstrap.mjs';
import { ensureSupportedNode } from './node.mjs';
import { installablePackageJson, packStaged, readCatalog } from './packing.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (msg) => process.stderr.write(`[pack:libs] ${msg}\n`);

/** The published library packages, dependencies (and peers) before dependants: `{ dir, pkg }`. */
export function publishedPackages(root = repoRoot) {
  const all = fs
    .readdirSync(path.join(root, 'packages'))
    .map((name) => path.join(root, 'packages', name))
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => pkg.private !== true);
  const byName = new Map(all.map((p) => [p.pkg.name, p]));
  const ordered = [];
  const visit = (p, trail = []) => {
    if (ordered.includes(p)) return;
    if (trail.includes(p)) throw new Error(`dependency circle: ${[...trail, p].map((x) => x.pkg.name).join(' → ')}`);
    // Optional peers too (core's simulator): the set is built and listed before what names it.
    const deps = [...Object.keys(p.pkg.dependencies ?? {}), ...Object.keys(p.pkg.peerDependencies ?? {})];
    for (const dep of deps) if (byName.has(dep)) visit(byName.get(dep), [...trail, p]);
    ordered.push(p);
  };
  for (const p of all.sort((a, b) => a.pkg.name.localeCompare(b.pkg.name))) visit(p);
  return ordered;
}

/**
 * The bare specifiers (packages, not node: builtins or relative paths) a built JavaScript file
 * imports. A keyword inside a string (a declaration's `"from"` literal) is not one, and a
 * specifier never spans lines.
 */
export function bareImports(code) {
  const found = new Set();
  const patterns = [
    /(?<!['"])\bfrom\s*['"]([^'"\n]+)['"]/g,
    /(?<!['"])\bimport\s*['"]([^'"\n]+)['"]/g,
    /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  ];
  for (const re of patterns)
    for (const m of code.matchAll(re)) {
      const spec = m[1];
      if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || builtinModules.includes(spec))
        continue;
      const parts = spec.split('/');
      found.add(spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
    }
  return [...found].sort();
}

/** Every package dist/ imports that package.json does not declare as a dependency (or peer). */
export function undeclaredImports(dir, pkg) {
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  const missing = new Map();
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(js|d\.ts)$/.test(entry.name))
        for (const name of bareImports(fs.readFileSync(p, 'utf8')))
          if (!declared.has(name)) missing.set(name, path.relative(dir, p));
    }
  };
  walk(path.join(dir, 'dist'));
  return [...missing].map(([name, file]) => `${name} (imported by ${file})`);
}

/** Builds one package's dist/ with tsc (tsconfig.build.json); throws with tsc's output on failure. */
export function buildPackage(dir) {
  fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.build.json')], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (r.status !== 0)
    throw new Error(`tsc -p ${path.relative(repoRoot, dir)}/tsconfig.build.json failed:\n${r.stdout}${r.stderr}`);
}

/** Builds and packs the published set into `outDir`; returns the tarballs' paths in dependency order. */
export function packLibs(outDir, { build = true } = {}) {
  const set = publishedPackages();
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const catalog = readCatalog(fs.readFileSync(path.join(repoRoot, 'pnpm-workspace.yaml'), 'utf8'));
  const workspace = Object.fromEntries(set.map(({ pkg }) => [pkg.name, pkg.version]));
  const tarballs = [];
  for (const { dir, pkg } of set) {
    if (build) buildPackage(dir);
    const undeclared = undeclaredImports(dir, pkg);
    if (undeclared.length)
      throw new Error(`${pkg.name}: dist/ imports packages package.json does not declare: ${undeclared.join(', ')}`);
    const manifest = installablePackageJson(pkg, { catalog, workspace, root, directory: path.relative(repoRoot, dir) });
    const file = path.join(outDir, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
    const info = packStaged({
      dir,
      files: pkg.files,
      manifest,
      out: file,
      tmp: os.tmpdir(),
      license: path.join(repoRoot, 'LICENSE'),
    });
    log(
      `${pkg.name}@${pkg.version}: ${info.entryCount} files, ${info.size} bytes → ${path.relative(process.cwd(), file)}`,
    );
    tarballs.push(file);
  }
  return tarballs;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf('--out');
  if (outAt >= 0 && !argv[outAt + 1]) {
    log('--out needs a directory');
    process.exit(2);
  }
  ensureSupportedNode();
  bootstrap();
  try {
    const tarballs = packLibs(path.resolve(outAt >= 0 ? argv[outAt + 1] : path.join(repoRoot, 'dist', 'packages')));
    process.stdout.write(`${tarballs.join('\n')}\n`);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
