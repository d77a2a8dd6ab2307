#!/usr/bin/env node
// Every check of the monorepo, in the order that fails fastest: install
// (bootstrap), type-check and lint (parallel), then every package's tests one
// package at a time (browsers and child processes share two cores). Ends with
// one line "Tests: N passed, N failed" summed over all packages. Turbo runs in
// loose env mode (turbo.json) so settings such as GFLOW_TEST_REPORT_DIR and
// GFLOW_CLI_BROWSER_EXECUTABLE reach the tasks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPnpm } from './pnpm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-tests-'));

const boot = spawnSync(process.execPath, [path.join(root, 'tooling/scripts/bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);

const env = { GFLOW_TEST_REPORT_DIR: reportDir, FORCE_COLOR: process.env['FORCE_COLOR'] ?? '0' };
const checks = runPnpm(['exec', 'turbo', 'run', 'typecheck', 'lint', '--output-logs=errors-only', '--continue'], { env });
const tests = runPnpm(['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue'], { env });

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of fs.readdirSync(reportDir)) {
  const report = JSON.parse(fs.readFileSync(path.join(reportDir, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
fs.rmSync(reportDir, { recursive: true, force: true });
process.stdout.write(`\ntypecheck+lint: ${checks === 0 ? 'ok' : 'FAILED'}\n`);
process.stdout.write(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(checks !== 0 || tests !== 0 || failed > 0 || passed === 0 ? 1 : 0);
