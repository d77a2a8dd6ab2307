#!/usr/bin/env node
// The kill stress of issue 38: the run-kill journey (test/runKills.browser.test.ts) with 20 trials
// per kind (a 5-prompt batch and a 3-link chain, each stopped at a seeded random step and phase by
// SIGKILL or Ctrl-C, then resumed) instead of CI's 2. Every trial asserts exactly one submit per
// prompt and per link and a completed run with all its files. Prints the tally vitest reports.
// Usage: node tests-e2e/scripts/killStress.mjs [TRIALS]   (run it on the pinned Node: npm run bootstrap)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const trials = process.argv[2] ?? '20';
const vitest = path.join(here, '..', '..', 'node_modules', '.bin', 'vitest');
const started = Date.now();
const run = spawnSync(vitest, ['run', 'test/runKills.browser.test.ts', '--reporter=verbose'], {
  cwd: path.join(here, '..'),
  env: { ...process.env, GFLOW_KILL_TRIALS: trials },
  stdio: 'inherit',
});
process.stdout.write(
  `\nkill stress: ${trials} trials per kind in ${Math.round((Date.now() - started) / 1000)} s, exit ${run.status}\n`,
);
process.exit(run.status ?? 1);
