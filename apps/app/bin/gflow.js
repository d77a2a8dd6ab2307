#!/usr/bin/env node
// The `gflow` launcher. It checks the running Node against engines.node first;
// then `gflow --version` answers before anything else is loaded. Otherwise it
// runs the bundle in dist/ (scripts/build.mjs) when that is up to date with the
// sources, and the TypeScript sources through tsx when it is not (or when
// GFLOW_FROM_SOURCES=1), so a source edit never runs stale code.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { distState } from './distState.js';
import { nodeSupport, unsupportedNodeMessage } from './nodeSupport.js';

// An unsupported Node gets one line and exit 11 (a configuration error) before anything
// native loads: better-sqlite3 aborts the process on some Node lines.
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const support = nodeSupport(process.versions.node, pkg.engines.node);
if (!support.supported) {
  process.stderr.write(`${unsupportedNodeMessage(support)}\n`);
  process.exit(11);
}

// Node ≥ 22.1 keeps compiled code on disk between runs (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
module.enableCompileCache?.();

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${pkg.version}\n`);
} else if (process.env.GFLOW_FROM_SOURCES !== '1' && distState(new URL('../dist/', import.meta.url)).fresh) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
