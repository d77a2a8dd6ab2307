#!/usr/bin/env node
// Runs the pinned pnpm (package.json "packageManager") without corepack, whose
// signature check fails on some machines: `npx -y pnpm@<version> ...args`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function pinnedPnpmVersion() {
  const pm = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
  return /^pnpm@(.+)$/.exec(pm)[1];
}

export function runPnpm(args, options = {}) {
  const version = pinnedPnpmVersion();
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, ['-y', `pnpm@${version}`, ...args], {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', ...options.env },
    shell: process.platform === 'win32',
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** runPnpm without blocking: resolves with the exit status, so two runs can share the machine. */
export function runPnpmAsync(args, options = {}) {
  const version = pinnedPnpmVersion();
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const child = spawn(npx, ['-y', `pnpm@${version}`, ...args], {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', ...options.env },
    shell: process.platform === 'win32',
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exit(runPnpm(process.argv.slice(2), { cwd: process.cwd() }));
}
