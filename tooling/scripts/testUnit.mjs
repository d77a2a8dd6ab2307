#!/usr/bin/env node
// `npm run test:unit`: the unit tests of every package (src/**/*.test.ts: no browser, no child
// process; tooling/test/testKinds.test.js keeps them so) in one vitest run, on this Node when it
// is supported (else the pinned one, as `npm test`). Assumes the bootstrap ran. Arguments go to
// vitest: `npm run test:unit -- --project @gflow/catalog`, `npm run test:unit -- src/wire`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

ensureSupportedNode();
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const r = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', path.join(root, 'tooling', 'vitest', 'unit.config.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env['FORCE_COLOR'] ?? (process.stdout.isTTY ? '1' : '0') },
  },
);
process.exit(r.status ?? 1);
