#!/usr/bin/env node
// The `gflow` launcher. It checks the running Node against engines.node first;
// then `gflow --version` answers before anything else is loaded. Otherwise it
// runs the bundle in dist/ (scripts/build.mjs) when that is up to date with the
// sources, and the TypeScript sources through tsx when it is not (or when
// GFLOW_FROM_SOURCES=1), so a source edit never runs stale code.
import module from 'node:module';
import { distState } from './distState.js';
import { nodeSupport, unsupportedNodeMessage } from './nodeSupport.js';

// node:fs through require: its ESM face would read every lazy getter of fs (fs/promises, its
// streams and watchers), a few ms of every start (apps/app/bench/cliStart.bench.ts).
const { readFileSync } = module.createRequire(import.meta.url)('node:fs');

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
  resolveChunksDirectly(new URL('../dist/', import.meta.url).href);
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}

/**
 * The bundle's chunks import one another by relative name (`./chunk-….js`), a few hundred imports
 * in a start. Node resolves each as it would any URL (a stat, a realpath, the package scope's type
 * looked up), about a tenth of `gflow models --json` (apps/app/bench/cliStart.bench.ts). They are
 * files the build wrote, flat in dist/ beside its `{"type":"module"}`: joined to the importing
 * chunk's URL they are what Node would find. Anything else resolves as usual; on a Node without
 * synchronous hooks (module.registerHooks, 22.15+) nothing changes.
 */
function resolveChunksDirectly(distUrl) {
  module.registerHooks?.({
    resolve(specifier, context, next) {
      return specifier.startsWith('./') && context.parentURL?.startsWith(distUrl)
        ? { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true }
        : next(specifier, context);
    },
  });
}
