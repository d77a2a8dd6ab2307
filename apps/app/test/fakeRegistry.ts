import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in npm registry on loopback that says @gflow/app's latest is `version` (null: it has no
 * such package, and answers 404 as npm's does); records what was asked.
 */
export async function startFakeRegistry(
  version: string | null = '99.1.0',
): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (version === null) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    res.end(JSON.stringify({ name: '@gflow/app', version }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A loopback npm registry serving the given installed packages (packed with `npm pack` from their
 * directories): what `npm install` of gflow's tarball fetches, with nothing leaving the machine.
 * Any other name is a 404, as npm answers for a package it does not have (@gflow/app included).
 */
export async function startPackageRegistry(
  packageDirs: readonly string[],
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
  for (const dir of packageDirs) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', store], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm pack ${dir}: ${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    const bytes = fs.readFileSync(path.join(store, info!.filename));
    const tarballPath = `/-/${pkg.name}/${info!.filename}`;
    tarballs.set(tarballPath, bytes);
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    packuments.set(pkg.name, {
      name: pkg.name,
      'dist-tags': { latest: pkg.version },
      versions: { [pkg.version]: { ...pkg, dist: { tarball: `${base}${tarballPath}`, integrity } } },
    });
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
