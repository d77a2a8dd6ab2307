#!/usr/bin/env node
// `npm run demo`: on a supported Node (node.mjs), bootstrap the workspace, then
// run the sandbox demo (apps/app/scripts/demo.ts).
import { bootstrap } from './bootstrap.mjs';
import { ensureSupportedNode } from './node.mjs';
import { runPnpm } from './pnpm.mjs';

ensureSupportedNode();
bootstrap();
process.exit(runPnpm(['--filter', '@gflow/app', 'run', 'demo']));
