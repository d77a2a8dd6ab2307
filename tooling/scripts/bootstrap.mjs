#!/usr/bin/env node
// Bootstrap for a fresh machine with only Node and npm: runs on a supported
// Node (node.mjs: the machine's own when it is supported, else a pinned one it
// installs from the npm registry), installs the pnpm workspace (pinned pnpm via
// npx) and, when no Chrome/Chromium is found, Debian's chromium (as root) or
// says what to install (as root, Debian's chromium-headless-shell beside it: the tests' lighter
// browser, tooling/browser/findChromium.js); the same for the PostgreSQL server the fleet's tests start throw-away
// clusters of (Debian's postgresql, without its default cluster); and builds the gflow binary's
// bundle (apps/app/dist) when it is missing or stale. Safe to re-run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The one Chromium finder (the test kit's; plain JavaScript, so it runs before anything is installed).
import { HEADLESS_SHELL_PACKAGE, findChromium, findFullChromium, findHeadlessShell } from '../browser/findChromium.js';
// The one PostgreSQL finder of the tests (plain JavaScript too).
import { findPostgresBin } from '../postgres/postgres.js';
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

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');

/**
 * `apt-get update` then `apt-get install` of `packages` (as root). A failure exits the process
 * unless `optional`: then it says so and returns false.
 */
function aptInstall(packages, { optional = false } = {}) {
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const r = spawnSync('apt-get', args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      log(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
      if (optional) return false;
      process.exit(1);
    }
  }
  return true;
}

/**
 * The browser gflow launches (a system Chrome/Chromium, or GFLOW_CLI_BROWSER_EXECUTABLE) and, as
 * root, Chromium's headless shell for the tests (optional: without it they use the full browser).
 */
function ensureChromium() {
  const configured = process.env['GFLOW_CLI_BROWSER_EXECUTABLE'] ? findChromium() : undefined;
  if (configured) {
    log(`browser: ${configured} (GFLOW_CLI_BROWSER_EXECUTABLE)`);
    return;
  }
  const full = findFullChromium();
  if (isRoot && hasApt && !findHeadlessShell()) {
    const wanted = full ? [HEADLESS_SHELL_PACKAGE] : ['chromium', HEADLESS_SHELL_PACKAGE];
    log(`installing Debian ${wanted.join(' and ')} (apt-get)`);
    if (!aptInstall(wanted, { optional: true }) && !full) aptInstall(['chromium']);
  } else if (isRoot && hasApt && !full) {
    log('no Chrome/Chromium found: installing Debian chromium (apt-get)');
    aptInstall(['chromium']);
  }
  const browser = findFullChromium();
  if (browser) {
    log(`browser: ${browser}; the tests' browser: ${findChromium()}`);
    return;
  }
  log('No Chrome or Chromium was found. Install one, then run this again:');
  log('  Debian/Ubuntu: sudo apt-get install chromium chromium-headless-shell   (or install Google Chrome)');
  log('  macOS/Windows: install Google Chrome');
  log('  or point GFLOW_CLI_BROWSER_EXECUTABLE at a Chrome/Chromium binary.');
  process.exit(1);
}

/**
 * The PostgreSQL server binaries the fleet's tests start throw-away clusters with (initdb, pg_ctl;
 * tooling/postgres). Nothing is started here and no cluster is kept: as root without them, Debian's
 * postgresql is installed with its default cluster turned off first (postgresql-common's
 * createcluster.d), so the machine runs no server the tests did not start.
 */
function ensurePostgres() {
  const found = findPostgresBin();
  if (found) {
    log(`postgresql: ${found}`);
    return;
  }
  if (isRoot && hasApt) {
    log('no PostgreSQL server found: installing Debian postgresql without its default cluster (apt-get)');
    const dropIn = '/etc/postgresql-common/createcluster.d/gflow-no-main-cluster.conf';
    fs.mkdirSync(path.dirname(dropIn), { recursive: true });
    if (!fs.existsSync(dropIn)) fs.writeFileSync(dropIn, 'create_main_cluster = false\n');
    aptInstall(['postgresql']);
    const installed = findPostgresBin();
    if (installed) {
      log(`postgresql: ${installed}`);
      return;
    }
  }
  log('No PostgreSQL server was found (the fleet tests start throw-away clusters). Install one, then run this again:');
  log('  Debian/Ubuntu: sudo apt-get install postgresql   (no server needs to run)');
  log('  macOS: brew install postgresql');
  log('  or point GFLOW_TEST_PG_BIN at the directory holding initdb and pg_ctl.');
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
  ensurePostgres();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  ensureSupportedNode();
  bootstrap();
}
