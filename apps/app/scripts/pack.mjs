#!/usr/bin/env node
// Packs the gflow binary (@gflow/app) into a tarball that `npm install -g` takes outside this
// repository. @gflow/app is not published on the npm registry (the `gflow` package there is
// another project), so this is how gflow is installed from a checkout:
//   node apps/app/scripts/pack.mjs [--out FILE]      (npm run pack:app at the root bootstraps first)
// It builds the bundle when it is stale, copies what package.json's "files" names into a staging
// directory with a package.json an installer can read — the workspace's `catalog:` versions
// resolved from pnpm-workspace.yaml, publishConfig's exports, no scripts or devDependencies —
// and runs `npm pack` there (the manifest's rules: tooling/scripts/packing.mjs, shared with the
// library packs). The tarball goes to FILE (default: <repo>/dist/gflow.tgz); its path
// is printed on stdout.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installablePackageJson, packStaged, readCatalog } from '../../../tooling/scripts/packing.mjs';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(appDir, '../..');
const log = (msg) => process.stderr.write(`[pack] ${msg}\n`);

function fail(msg) {
  log(msg);
  process.exit(1);
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
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const catalog = readCatalog(fs.readFileSync(path.join(repoRoot, 'pnpm-workspace.yaml'), 'utf8'));
  try {
    const manifest = installablePackageJson(pkg, { catalog, root, directory: 'apps/app', ranges: 'exact' });
    const info = packStaged({
      dir: appDir,
      files: pkg.files,
      manifest,
      out,
      tmp: os.tmpdir(),
      license: path.join(repoRoot, 'LICENSE'),
    });
    log(`${manifest.name}@${manifest.version}: ${info.entryCount} files, ${info.size} bytes → ${out}`);
    const shown = path.relative(process.cwd(), out);
    log(`install it with: npm install -g ${shown.startsWith('..') || path.isAbsolute(shown) ? out : `./${shown}`}`);
    process.stdout.write(`${out}\n`);
  } catch (error) {
    fail(error.message);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main(process.argv.slice(2));
