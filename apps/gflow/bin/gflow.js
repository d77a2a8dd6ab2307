#!/usr/bin/env node
// The `gflow` launcher. It runs the TypeScript sources through tsx's ESM
// loader, so the binary works inside the monorepo without a build step.
// `gflow --version` answers before anything else is loaded.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
