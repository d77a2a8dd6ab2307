#!/usr/bin/env node
// Every check of the monorepo, in the order that fails fastest, on both
// supported Node lines (node.mjs): install (bootstrap), type-check and lint
// (parallel), then every package's tests one package at a time (browsers and
// child processes share two cores; the journeys in a lane of their own beside them) on this Node (the pinned line unless the
// machine's own is supported); then, on the other supported line, the unit
// tests (the same run as `npm run test:unit`: src/**/*.test.ts of every
// package, tooling/vitest/unit.config.js), the journeys that depend on the Node binary and the sandbox
// demo. Ends with one
// line "Tests: N passed, N failed" summed over both lines (the demo counts as
// one test). Turbo runs in loose env mode (turbo.json) so settings such as
// GFLOW_TEST_REPORT_DIR and GFLOW_CLI_BROWSER_EXECUTABLE reach the tasks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap } from './bootstrap.mjs';
import { ensureSupportedNode, envWithNode, secondLineNode } from './node.mjs';
import { runPnpm, runPnpmAsync } from './pnpm.mjs';

const testUnit = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testUnit.mjs');

const log = (msg) => process.stderr.write(`[test] ${msg}\n`);
const started = Date.now();
const minutesSince = (at) => `${((Date.now() - at) / 60_000).toFixed(1)} min`;

ensureSupportedNode();
bootstrap();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-tests-'));
const base = { FORCE_COLOR: process.env['FORCE_COLOR'] ?? '0' };

/** The failed tests of one vitest JSON report, as "file > test" lines (CI shows only the tail). */
function failedNames(report) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) names.push(`${where} > ${t.fullName ?? t.title}`);
    if (failed.length === 0 && file.status === 'failed')
      names.push(`${where} (the file failed: ${String(file.message ?? '').slice(0, 200)})`);
  }
  return names;
}

/** Sums the vitest JSON reports in `dir`. */
function tally(dir) {
  const sum = { passed: 0, failed: 0, skipped: 0, failures: [], files: [] };
  if (!fs.existsSync(dir)) return sum;
  // Only the reports: the folder also holds the browser tests' screenshots.
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    sum.passed += report.numPassedTests ?? 0;
    sum.failed += report.numFailedTests ?? 0;
    sum.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    sum.failures.push(...failedNames(report));
    for (const f of report.testResults ?? [])
      if (f.endTime && f.startTime)
        sum.files.push({ name: path.relative(process.cwd(), f.name ?? ''), ms: f.endTime - f.startTime });
  }
  return sum;
}

/**
 * Every package's suites on this Node, in two lanes side by side: the journeys (tests-e2e, two
 * files at a time) in one, every other package one after another in the other (each two files at a
 * time). A browser file spends most of its time waiting on its simulator and Chromium, so two
 * lanes keep both cores busy where one left one idle. GFLOW_TEST_LANES=1 runs them one package
 * at a time, as before.
 */
async function everySuite(env) {
  const journeys = '@gflow/tests-e2e';
  const sequential = ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue'];
  if (process.env['GFLOW_TEST_LANES'] === '1') return runPnpm(sequential, { env });
  const lanes = await Promise.all([
    runPnpmAsync([...sequential, `--filter=!${journeys}`], { env }),
    runPnpmAsync(['--filter', journeys, 'run', 'test'], { env }),
  ]);
  return lanes.every((status) => status === 0) ? 0 : 1;
}

// 1. This Node: type-check, lint, the formatting check and the whole suite.
const mainDir = path.join(work, 'main');
const mainEnv = { ...base, GFLOW_TEST_REPORT_DIR: mainDir };
const typecheckLint = runPnpm(
  ['exec', 'turbo', 'run', 'typecheck', 'lint', '--output-logs=errors-only', '--continue'],
  {
    env: mainEnv,
  },
);
const format = runPnpm(['exec', 'prettier', '--check', '--log-level', 'warn', '.'], { env: mainEnv });
if (format !== 0) log('formatting: run `npm run format` (Prettier, .prettierrc.json) and commit the result');
const checks = typecheckLint || format;
const mainStarted = Date.now();
const mainStatus = await everySuite(mainEnv);
const lines = [
  {
    node: process.versions.node,
    what: 'every suite',
    status: mainStatus,
    took: minutesSince(mainStarted),
    ...tally(mainDir),
  },
];

// 2. The other supported line: tests beside the code, the journeys, the demo.
const second = secondLineNode();
if (second) {
  log(
    `Node ${second.version}: the unit tests (npm run test:unit), the journeys that depend on the Node binary and the sandbox demo`,
  );
  const secondStarted = Date.now();
  const dir = path.join(work, 'second');
  const env = { ...envWithNode(second.binary), ...base, GFLOW_TEST_REPORT_DIR: dir };
  const units = spawnSync(second.binary, [testUnit], { stdio: 'inherit', env }).status ?? 1;
  // The second line proves the runtime on the other Node: what depends on the Node binary itself
  // (native SQLite, the browser, the servers, signals, child processes and the worker), through
  // every surface (tests-e2e `test:second-line`: the generation journey on the CLI, MCP stdio,
  // Streamable HTTP and the library; a kill and a restart; a server shutdown; tasks across
  // processes; the background worker), beside every unit test and the demo. Journeys of product
  // behaviour (failures, spend control, locks, batches, chains, agent mode, regressions), whose code
  // is the same JavaScript on both lines, run on the pinned line only.
  const journeys = runPnpm(['--filter', '@gflow/tests-e2e', 'run', 'test:second-line'], { env });
  const demoHome = path.join(work, 'demo-home');
  const demo = runPnpm(['--filter', '@gflow/app', 'run', 'demo'], {
    env: { ...env, GFLOW_CLI_HOME: demoHome, GFLOW_CLI_OUTPUT_DIR: path.join(demoHome, 'out') },
  });
  const sum = tally(dir);
  lines.push({
    node: second.version,
    what: 'unit tests, Node-binary journeys, demo',
    status: units || journeys || demo,
    passed: sum.passed + (demo === 0 ? 1 : 0),
    failed: sum.failed + (demo === 0 ? 0 : 1),
    skipped: sum.skipped,
    failures: demo === 0 ? sum.failures : [...sum.failures, 'the sandbox demo'],
    files: sum.files,
    took: minutesSince(secondStarted),
  });
} else {
  log('GFLOW_NODE=system: the second supported Node line is not run (nothing is provisioned)');
}
fs.rmSync(work, { recursive: true, force: true });

const total = lines.reduce(
  (t, l) => ({ passed: t.passed + l.passed, failed: t.failed + l.failed, skipped: t.skipped + l.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
process.stdout.write(
  `\ntypecheck+lint: ${typecheckLint === 0 ? 'ok' : 'FAILED'}\nformat: ${format === 0 ? 'ok' : 'FAILED'}\n`,
);
for (const l of lines)
  process.stdout.write(
    `Node ${l.node} (${l.what}): ${l.passed} passed, ${l.failed} failed${l.status !== 0 ? ' (a task failed)' : ''}, ${l.took}\n`,
  );
// Where the time goes (the suite's budget is 45 min on a clean clone): the slowest test files.
const slowest = lines
  .flatMap((l) => l.files.map((f) => ({ ...f, node: l.node })))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 8);
for (const f of slowest) process.stdout.write(`slow: ${(f.ms / 1000).toFixed(0)} s  ${f.name} (Node ${f.node})\n`);
for (const l of lines) for (const name of l.failures) process.stdout.write(`FAILED on Node ${l.node}: ${name}\n`);
process.stdout.write(
  `Tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''} in ${minutesSince(started)}\n`,
);
const failedLine = lines.some((l) => l.status !== 0 || l.passed === 0);
process.exit(checks !== 0 || failedLine || total.failed > 0 ? 1 : 0);
