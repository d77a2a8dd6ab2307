#!/usr/bin/env node
// Packs the gflow binary (@gflow/app) into a tarball that `npm install -g` takes outside this
// repository. @gflow/app is not published on the npm registry (the `gflow` package there is
// another project), so this is how gflow is installed from a checkout:
//   node apps/app/scripts/pack.mjs [--out FILE]      (npm run pack:app at the root bootstraps first)
// It builds the bundle when it is stale, copies what package.json's "files" names into a staging
// directory with a package.json an installer can read — the workspace's `catalog:` versions
// resolved from pnpm-workspace.yaml, publishConfig's exports, no scripts or devDependencies —
// and runs `npm pack` there. The tarball goes to FILE (default: <repo>/dist/gflow.tgz); its path
// is printed on stdout.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(appDir, '../..');
const log = (msg) => process.stderr.write(`[pack] ${msg}\n`);

function fail(msg) {
  log(msg);
  process.exit(1);
}

/** The versions of pnpm-workspace.yaml's `catalog:` block (the default catalog). */
export function readCatalog(yamlText) {
  const versions = {};
  let inside = false;
  for (const line of yamlText.split(/\r?\n/)) {
    if (/^catalog:\s*$/.test(line)) {
      inside = true;
      continue;
    }
    if (!inside || /^\s*(#.*)?$/.test(line)) continue;
    if (!/^\s/.test(line)) break;
    const entry = /^\s+(?:"([^"]+)"|'([^']+)'|([^\s:'"]+)):\s*["']?([^"'\s#]+)["']?/.exec(line);
    if (entry) versions[entry[1] ?? entry[2] ?? entry[3]] = entry[4];
  }
  return versions;
}

/** The package.json of the tarball: what an installer needs, every version a real one. */
export function installablePackageJson(pkg, catalog) {
  const dependencies = {};
  for (const [name, spec] of Object.entries(pkg.dependencies ?? {})) {
    if (spec === 'catalog:' || spec === 'catalog:default') {
      if (!catalog[name]) throw new Error(`${name}: no version in pnpm-workspace.yaml's catalog`);
      dependencies[name] = catalog[name];
    } else if (/^(catalog|workspace):/.test(spec)) {
      throw new Error(`${name}: "${spec}" cannot be resolved for an install outside the workspace`);
    } else dependencies[name] = spec;
  }
  const { exports: publishedExports, ...publishConfig } = pkg.publishConfig ?? {};
  const out = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    type: pkg.type,
    bin: pkg.bin,
    files: pkg.files,
    engines: pkg.engines,
    exports: publishedExports ?? pkg.exports,
    dependencies,
  };
  if (pkg.license) out.license = pkg.license;
  if (Object.keys(publishConfig).length) out.publishConfig = publishConfig;
  return out;
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.error) fail(`${command} ${args.join(' ')}: ${r.error.message}`);
  return r;
}

function main(argv) {
  const outAt = argv.indexOf('--out');
  if (outAt >= 0 && !argv[outAt + 1]) fail('--out needs a file name');
  const out = path.resolve(outAt >= 0 ? argv[outAt + 1] : path.join(repoRoot, 'dist', 'gflow.tgz'));

  const build = path.join(appDir, 'scripts', 'build.mjs');
  if (run(process.execPath, [build, '--check']).status !== 0) {
    const built = run(process.execPath, [build], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (built.status !== 0) fail('the bundle did not build');
  }

  const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const catalog = readCatalog(fs.readFileSync(path.join(repoRoot, 'pnpm-workspace.yaml'), 'utf8'));
  let manifest;
  try {
    manifest = installablePackageJson(pkg, catalog);
  } catch (error) {
    fail(error.message);
  }

  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-pack-stage-'));
  try {
    for (const entry of pkg.files) {
      const from = path.join(appDir, entry);
      if (!fs.existsSync(from)) fail(`package.json "files" names ${entry}, which is not there`);
      fs.cpSync(from, path.join(stage, entry), { recursive: true });
    }
    fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stage], {
      cwd: stage,
      shell: process.platform === 'win32',
    });
    if (packed.status !== 0) fail(`npm pack failed:\n${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.copyFileSync(path.join(stage, info.filename), out);
    log(`${manifest.name}@${manifest.version}: ${info.entryCount} files, ${info.size} bytes → ${out}`);
    const shown = path.relative(process.cwd(), out);
    log(`install it with: npm install -g ${shown.startsWith('..') || path.isAbsolute(shown) ? out : `./${shown}`}`);
    process.stdout.write(`${out}\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main(process.argv.slice(2));
