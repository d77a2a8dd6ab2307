#!/usr/bin/env node
// `npm run pack:app`: on a supported Node (node.mjs), bootstrap the workspace, then pack the gflow
// binary into dist/gflow.tgz for `npm install -g ./dist/gflow.tgz` (apps/app/scripts/pack.mjs;
// arguments are passed on, e.g. `-- --out FILE`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap } from './bootstrap.mjs';
import { ensureSupportedNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

ensureSupportedNode();
bootstrap();
const packed = spawnSync(
  process.execPath,
  [path.join(root, 'apps', 'app', 'scripts', 'pack.mjs'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(packed.status ?? 1);
