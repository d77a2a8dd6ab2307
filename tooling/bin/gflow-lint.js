#!/usr/bin/env node
// Runs the monorepo's ESLint (installed here, with the TypeScript 6 API that
// typescript-eslint needs) in the calling package's directory.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const eslintPkg = require.resolve('eslint/package.json');
const eslintBin = path.join(path.dirname(eslintPkg), 'bin', 'eslint.js');
const args = process.argv.slice(2);
const result = spawnSync(process.execPath, [eslintBin, ...(args.length ? args : ['.'])], { stdio: 'inherit' });
process.exit(result.status ?? 1);
