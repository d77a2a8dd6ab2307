#!/usr/bin/env node
// Bootstrap for a fresh machine with only Node and npm: runs on a supported
// Node (node.mjs: the machine's own when it is supported, else a pinned one it
// installs from the npm registry), installs the pnpm workspace (pinned pnpm via
// npx) and, when no Chrome/Chromium is found, Debian's chromium (as root) or
// says what to install, and builds the gflow binary's bundle (apps/app/dist)
// when it is missing or stale. Safe to re-run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The one Chromium finder (the test kit's; plain JavaScript, so it runs before anything is installed).
import { findChromium } from '../browser/findChromium.js';
import { ensureSupportedNode } from './node.mjs';
import { runPnpm } from './pnpm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);

function installDeps() {
  const frozen = fs.existsSync(path.join(root, 'pnpm-lock.yaml')) && process.env['CI'] ? ['--frozen-lockfile'] : [];
  log(`pnpm install ${frozen.join(' ')}`.trim());
  const status = runPnpm(['install', ...frozen, '--reporter=append-only']);
  if (status !== 0) {
    log('pnpm install failed');
    process.exit(status);
  }
}

function ensureChromium() {
  const found = findChromium();
  if (found) {
    log(`browser: ${found}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = fs.existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    log('no Chrome/Chromium found: installing Debian chromium (apt-get)');
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
      const r = spawnSync('apt-get', args, {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      if (r.status !== 0) {
        log(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
        process.exit(1);
      }
    }
    if (findChromium()) return;
  }
  log('No Chrome or Chromium was found. Install one, then run this again:');
  log('  Debian/Ubuntu: sudo apt-get install chromium   (or install Google Chrome)');
  log('  macOS/Windows: install Google Chrome');
  log('  or point GFLOW_CLI_BROWSER_EXECUTABLE at a Chrome/Chromium binary.');
  process.exit(1);
}

/** The gflow binary's bundle (apps/app/dist): the launcher runs it instead of the sources when it is fresh. */
function buildBinary() {
  const script = path.join(root, 'apps/app/scripts/build.mjs');
  const fresh = spawnSync(process.execPath, [script, '--check'], { stdio: 'ignore' });
  if (fresh.status === 0) return;
  const r = spawnSync(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    log(`building the gflow bundle failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

/** Every step above, in order; exits the process on a failure. Call it on a supported Node (ensureSupportedNode). */
export function bootstrap() {
  installDeps();
  buildBinary();
  ensureChromium();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  ensureSupportedNode();
  bootstrap();
}
