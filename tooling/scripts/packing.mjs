// What a package of this workspace looks like outside it: the one home of the rules that turn a
// workspace package.json into the one a tarball carries, shared by the gflow binary's pack
// (apps/app/scripts/pack.mjs) and the library packs (tooling/scripts/packLibs.mjs).
//   - `catalog:` ranges become pnpm-workspace.yaml's catalog versions; `workspace:` ones become the
//     exact version of the published set (one version for every published package), so a tarball
//     never names a protocol npm cannot read;
//   - publishConfig's fields (exports, bin, …) replace the workspace's (which point at src/);
//   - no scripts, no devDependencies; license and repository come from the root package.json
//     (repository with the package's directory).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

/**
 * Dependencies a library tarball pins exactly: Playwright's client speaks a protocol of its own
 * version to the browser driver code we tested it with (Playwright's own packages pin it too).
 * Every other catalog version becomes a caret range in a library, so an embedder's tree can share
 * one copy (of zod, say) with ours; the binary's tarball keeps every pin (`ranges: 'exact'`).
 */
export const EXACT_PINS = new Set(['playwright-core']);

/** The range a catalog version becomes in a tarball. */
export function rangeOf(name, version, ranges) {
  if (ranges === 'exact' || EXACT_PINS.has(name) || !/^\d+\.\d+\.\d+$/.test(version)) return version;
  return `^${version}`;
}

/** Fields a publishConfig may set for the tarball (pnpm's list, less what gflow does not use). */
const PUBLISH_OVERRIDES = ['exports', 'bin', 'main', 'module', 'types', 'typings', 'browser', 'imports'];

/**
 * The package.json of the tarball: what an installer needs, every version a real one.
 * @param {Record<string, any>} pkg the workspace package.json
 * @param {{ catalog: Record<string, string>, workspace?: Record<string, string>, root?: Record<string, any>, directory?: string, ranges?: 'caret' | 'exact' }} context
 *   the catalog versions, the published packages' versions by name (what `workspace:` resolves to),
 *   the root package.json (license, repository), the package's directory in the repository, and
 *   whether catalog versions become caret ranges (libraries, the default) or stay exact (the binary)
 */
export function installablePackageJson(pkg, context) {
  const { catalog, workspace = {}, root = {}, directory, ranges = 'caret' } = context;
  const resolve = (deps, field) => {
    if (!deps) return undefined;
    const out = {};
    for (const [name, spec] of Object.entries(deps)) {
      if (spec === 'catalog:' || spec === 'catalog:default') {
        if (!catalog[name]) throw new Error(`${name}: no version in pnpm-workspace.yaml's catalog`);
        out[name] = rangeOf(name, catalog[name], ranges);
      } else if (/^workspace:/.test(spec)) {
        if (!workspace[name])
          throw new Error(
            `${pkg.name} ${field} ${name}: "${spec}" names a package that is not published, so an install outside the workspace cannot find it`,
          );
        out[name] = workspace[name];
      } else if (/^catalog:/.test(spec)) {
        throw new Error(`${name}: "${spec}" cannot be resolved for an install outside the workspace`);
      } else out[name] = spec;
    }
    return out;
  };
  const publishConfig = { ...(pkg.publishConfig ?? {}) };
  const overrides = {};
  for (const key of PUBLISH_OVERRIDES)
    if (key in publishConfig) {
      overrides[key] = publishConfig[key];
      delete publishConfig[key];
    }
  const repository = pkg.repository ?? root.repository;
  const out = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    keywords: pkg.keywords,
    license: pkg.license ?? root.license,
    repository:
      repository && directory
        ? { ...(typeof repository === 'string' ? { type: 'git', url: repository } : repository), directory }
        : repository,
    type: pkg.type,
    sideEffects: pkg.sideEffects,
    bin: pkg.bin,
    exports: pkg.exports,
    files: pkg.files,
    engines: pkg.engines ?? root.engines,
    dependencies: resolve(pkg.dependencies, 'dependencies'),
    peerDependencies: resolve(pkg.peerDependencies, 'peerDependencies'),
    peerDependenciesMeta: pkg.peerDependenciesMeta,
    optionalDependencies: resolve(pkg.optionalDependencies, 'optionalDependencies'),
    ...overrides,
  };
  if (Object.keys(publishConfig).length) out.publishConfig = publishConfig;
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

/**
 * Copies what `files` names (and the package.json given, and the repository's LICENSE when there is
 * one) into a staging directory and runs `npm pack` there; the tarball is copied to `out`. Returns
 * npm's report of the tarball.
 * @param {{ dir: string, files: string[], manifest: Record<string, any>, out: string, tmp: string, license?: string }} options
 */
export function packStaged({ dir, files, manifest, out, tmp, license }) {
  const stage = fs.mkdtempSync(path.join(tmp, 'gflow-pack-stage-'));
  try {
    for (const entry of files) {
      const from = path.join(dir, entry);
      if (!fs.existsSync(from))
        throw new Error(`${manifest.name}: package.json "files" names ${entry}, which is not there`);
      fs.cpSync(from, path.join(stage, entry), { recursive: true });
    }
    fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (license && fs.existsSync(license)) fs.copyFileSync(license, path.join(stage, 'LICENSE'));
    const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stage], {
      cwd: stage,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    if (packed.error) throw packed.error;
    if (packed.status !== 0) throw new Error(`npm pack of ${manifest.name} failed:\n${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.copyFileSync(path.join(stage, info.filename), out);
    return info;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
