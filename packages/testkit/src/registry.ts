// A loopback npm registry for install tests: `npm install` of a gflow tarball fetches its
// dependencies from here, as the workspace installed them, so nothing leaves the machine.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestOf = (dir: string): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** The `node_modules` directory a package sits in (pnpm links its dependencies beside it). */
function enclosingNodeModules(dir: string): string {
  let at = path.dirname(dir);
  while (path.basename(at) !== 'node_modules') {
    const up = path.dirname(at);
    if (up === at) throw new Error(`${dir} is not inside a node_modules directory`);
    at = up;
  }
  return at;
}

/** Orders two plain x.y.z versions (pre-release tags compare as text after the numbers). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The installed packages an install of `names` needs, found from `fromDir` (a workspace package
 * whose node_modules has them): each package's directory, and its dependencies' (required peers
 * and the optional ones that are installed included), transitively, each once.
 */
export function dependencyClosure(fromDir: string, names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const visit = (dir: string): void => {
    const real = fs.realpathSync(dir);
    const pkg = manifestOf(real);
    const key = `${pkg.name}@${pkg.version}`;
    if (seen.has(key)) return;
    seen.set(key, real);
    const nm = enclosingNodeModules(real);
    const required = Object.keys(pkg.peerDependencies ?? {}).filter((n) => !pkg.peerDependenciesMeta?.[n]?.optional);
    for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...required]) visit(path.join(nm, dep));
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      if (fs.existsSync(path.join(nm, dep))) visit(path.join(nm, dep));
  };
  for (const name of names) visit(path.join(fromDir, 'node_modules', name));
  return [...seen.values()];
}

/**
 * A loopback npm registry serving the given installed packages (their directories, tarred) and the given tarballs (a gflow package's, as `npm pack` wrote it): what `npm
 * install` fetches, with nothing leaving the machine. Any other name is a 404, as npm answers for
 * a package it does not have. Records every path asked.
 */
export async function startPackageRegistry(
  packageDirs: readonly string[],
  tarballFiles: readonly string[] = [],
): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-registry-'));
  const packuments = new Map<string, Record<string, unknown>>();
  const tarballs = new Map<string, Buffer>();
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    asked.push(url);
    const tarball = tarballs.get(url);
    if (tarball) {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(tarball);
      return;
    }
    const packument = packuments.get(url.slice(1));
    res.setHeader('content-type', 'application/json');
    if (!packument) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    res.end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // One packument per name, every version served (a closure may hold two versions of one package).
  const serve = (pkg: Manifest, file: string): void => {
    const bytes = fs.readFileSync(file);
    const tarballPath = `/-/${pkg.name}/${path.basename(file)}`;
    tarballs.set(tarballPath, bytes);
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    const packument = (packuments.get(pkg.name) ?? { name: pkg.name, 'dist-tags': {}, versions: {} }) as {
      'dist-tags': Record<string, string>;
      versions: Record<string, unknown>;
    };
    packument.versions[pkg.version] = { ...pkg, dist: { tarball: `${base}${tarballPath}`, integrity } };
    const latest = packument['dist-tags']['latest'];
    if (!latest || compareVersions(pkg.version, latest) > 0) packument['dist-tags']['latest'] = pkg.version;
    packuments.set(pkg.name, packument);
  };
  for (const dir of packageDirs) {
    // The installed directory as it is (tar, not `npm pack`: npm gives up on packages of thousands
    // of files, such as drizzle-orm), under the `package/` prefix npm expects; pnpm's store hard-links
    // files of equal content, and npm's extraction drops hard-link entries, so they are stored whole.
    const pkg = manifestOf(dir);
    const file = path.join(store, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
    const packed = spawnSync(
      'tar',
      [
        '-czf',
        file,
        '--hard-dereference',
        '--exclude=./node_modules',
        '--transform',
        's,^\\.,package,',
        '-C',
        dir,
        '.',
      ],
      { encoding: 'utf8' },
    );
    if (packed.status !== 0) throw new Error(`tar ${dir}: ${packed.stderr}`);
    serve(pkg, file);
  }
  for (const file of tarballFiles) {
    const text = spawnSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' });
    if (text.status !== 0) throw new Error(`${file}: no package/package.json (${text.stderr})`);
    serve(JSON.parse(text.stdout) as Manifest, file);
  }
  return {
    url: base,
    asked,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(store, { recursive: true, force: true });
    },
  };
}

/** How a command ended: its exit status and what it printed. */
export interface CommandRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion without blocking this process (so the loopback registry answers meanwhile). */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * npm's environment for an install test: this process's, less any npm_config_* a parent npm set,
 * with the loopback registry and a private cache and user config under `dir` (plus `extra`, e.g. a
 * global prefix). Nothing is read from or written to the user's own npm setup.
 */
export function npmEnv(registryUrl: string, dir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^npm_config_/i.test(key)) env[key] = value;
  const userconfig = path.join(dir, 'npmrc');
  if (!fs.existsSync(userconfig)) fs.writeFileSync(userconfig, '');
  return {
    ...env,
    npm_config_registry: `${registryUrl}/`,
    npm_config_cache: path.join(dir, 'npm-cache'),
    npm_config_userconfig: userconfig,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}
