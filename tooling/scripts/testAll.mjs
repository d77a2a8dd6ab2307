#!/usr/bin/env node
// Every check of the monorepo on both supported Node lines (node.mjs): install (bootstrap), the
// formatting check, then every job in two lanes that each take the next job when their last one
// ends, heaviest first (browsers and child processes share two cores; GFLOW_TEST_LANES=1 runs one
// job at a time): type-check and lint, every package's tests on this Node (the pinned line
// unless the machine's own is supported), and on the other supported line the unit tests (the
// same run as `npm run test:unit`: src/**/*.test.ts of every package,
// tooling/vitest/unit.config.js), the journeys that depend on the Node binary and the sandbox
// demo. Ends with one line "Tests: N passed, N failed" summed over both lines (the demo counts as
// one test) and each job's minutes. Turbo runs in loose env mode (turbo.json) so settings such as
// GFLOW_TEST_REPORT_DIR and GFLOW_CLI_BROWSER_EXECUTABLE reach the tasks.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap } from './bootstrap.mjs';
import { ensureSupportedNode, envWithNode, secondLineNode } from './node.mjs';
import { runPnpm, runPnpmAsync } from './pnpm.mjs';

const testUnit = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testUnit.mjs');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
 * The heaviest jobs first (seconds on a clean clone, 2026-12-05), so the two lanes end together:
 * whatever job is not named here runs after these, in name order.
 */
const HEAVIEST_FIRST = [
  '@gflow/tests-e2e', // ~1400 s
  '@gflow/driver', // ~850 s
  '@gflow/core', // ~550 s
  '@gflow/app', // ~460 s
  '@gflow/fleet',
  '@gflow/flow-sim', // ~265 s
  '@gflow/mcp', // ~235 s
  'typecheck+lint', // ~200 s
];

/** The workspace packages with a `test` script, heaviest first. */
function testedPackages() {
  const dirs = ['packages', 'apps'].flatMap((g) =>
    fs.readdirSync(path.join(root, g)).map((d) => path.join(root, g, d)),
  );
  const names = [...dirs, path.join(root, 'tooling'), path.join(root, 'tests-e2e')]
    .map((dir) => path.join(dir, 'package.json'))
    .filter((file) => fs.existsSync(file))
    .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')))
    .filter((pkg) => pkg.scripts?.test)
    .map((pkg) => pkg.name);
  return names.sort(byWeight);
}

function byWeight(a, b) {
  const rank = (name) => (HEAVIEST_FIRST.includes(name) ? HEAVIEST_FIRST.indexOf(name) : HEAVIEST_FIRST.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * Runs the jobs in `lanes` lanes that each take the next job when their last one ends (the
 * browser files wait on their simulator and Chromium much of the time, so two lanes keep both
 * cores busy). Resolves with each job's exit status and minutes, in the jobs' order.
 */
async function inLanes(jobs, lanes) {
  const results = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index];
      const at = Date.now();
      log(`start ${job.name}`);
      const status = await job.run();
      results[index] = { name: job.name, status, minutes: (Date.now() - at) / 60_000 };
      log(`${job.name}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} in ${minutesSince(at)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return results;
}

/** A job that runs a command and resolves with its exit status. */
function spawnJob(name, command, args, env) {
  return {
    name,
    run: () =>
      new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
        child.on('error', () => resolve(1));
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  };
}

// 1. The formatting check (seconds), then every job in two lanes: type-check and lint and every
// package's tests on this Node (the pinned line unless the machine's own is supported); on the
// other supported line the unit tests (the same run as `npm run test:unit`), the journeys that
// depend on the Node binary and the sandbox demo.
const mainDir = path.join(work, 'main');
const mainEnv = { ...base, GFLOW_TEST_REPORT_DIR: mainDir };
const format = runPnpm(['exec', 'prettier', '--check', '--log-level', 'warn', '.'], { env: mainEnv });
if (format !== 0) log('formatting: run `npm run format` (Prettier, .prettierrc.json) and commit the result');

const checksJob = {
  name: 'typecheck+lint',
  run: () =>
    runPnpmAsync(['exec', 'turbo', 'run', 'typecheck', 'lint', '--output-logs=errors-only', '--continue'], {
      env: mainEnv,
    }),
};
const mainJobs = [
  checksJob,
  ...testedPackages().map((name) => ({
    name,
    run: () => runPnpmAsync(['--filter', name, 'run', 'test'], { env: mainEnv }),
  })),
].sort((a, b) => byWeight(a.name, b.name));

// The second line proves the runtime on the other Node: what depends on the Node binary itself
// (native SQLite, the browser, the servers, signals, child processes and the worker), through
// every surface (tests-e2e `test:second-line`: the generation journey on the CLI, MCP stdio,
// Streamable HTTP and the library; a kill and a restart; a server shutdown; tasks across
// processes; the background worker), beside every unit test and the demo. Journeys of product
// behaviour (failures, spend control, locks, batches, chains, agent mode, regressions), whose code
// is the same JavaScript on both lines, run on the pinned line only. The pinned line's tests launch
// Chromium's headless shell when it is installed (tooling/browser/findChromium.js); the second
// line's journeys launch the full browser (GFLOW_TEST_BROWSER=full) and the demo the one gflow
// finds itself, so the browser users run is proved on every surface too.
const second = secondLineNode();
const secondDir = path.join(work, 'second');
const secondJobs = [];
if (second) {
  const env = { ...envWithNode(second.binary), ...base, GFLOW_TEST_REPORT_DIR: secondDir };
  const demoHome = path.join(work, 'demo-home');
  secondJobs.push(
    spawnJob(`Node ${second.version} unit tests`, second.binary, [testUnit], env),
    {
      name: `Node ${second.version} journeys`,
      run: () =>
        runPnpmAsync(['--filter', '@gflow/tests-e2e', 'run', 'test:second-line'], {
          env: { ...env, GFLOW_TEST_BROWSER: 'full' },
        }),
    },
    {
      name: `Node ${second.version} demo`,
      run: () =>
        runPnpmAsync(['--filter', '@gflow/app', 'run', 'demo'], {
          env: { ...env, GFLOW_CLI_HOME: demoHome, GFLOW_CLI_OUTPUT_DIR: path.join(demoHome, 'out') },
        }),
    },
  );
} else {
  log('GFLOW_NODE=system: the second supported Node line is not run (nothing is provisioned)');
}

const lanes = Number(process.env['GFLOW_TEST_LANES'] ?? 2);
const ran = await inLanes([...mainJobs, ...secondJobs], lanes);
const statusOf = (name) => ran.find((r) => r.name === name)?.status ?? 1;
const typecheckLint = statusOf(checksJob.name);
const checks = typecheckLint || format;
const mainRan = ran.filter((r) => mainJobs.some((j) => j.name === r.name) && r.name !== checksJob.name);
const secondRan = ran.filter((r) => secondJobs.some((j) => j.name === r.name));
const demo = second ? statusOf(`Node ${second.version} demo`) : 0;
const lines = [
  {
    node: process.versions.node,
    what: 'every suite',
    status: mainRan.some((r) => r.status !== 0) ? 1 : 0,
    took: `${mainRan.reduce((t, r) => t + r.minutes, 0).toFixed(1)} min of jobs`,
    ...tally(mainDir),
  },
];
if (second) {
  const sum = tally(secondDir);
  lines.push({
    node: second.version,
    what: 'unit tests, Node-binary journeys, demo',
    status: secondRan.some((r) => r.status !== 0) ? 1 : 0,
    passed: sum.passed + (demo === 0 ? 1 : 0),
    failed: sum.failed + (demo === 0 ? 0 : 1),
    skipped: sum.skipped,
    failures: demo === 0 ? sum.failures : [...sum.failures, 'the sandbox demo'],
    files: sum.files,
    took: `${secondRan.reduce((t, r) => t + r.minutes, 0).toFixed(1)} min of jobs`,
  });
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
process.stdout.write(
  `jobs (${lanes} lanes): ${ran.map((r) => `${r.name} ${r.minutes.toFixed(1)}${r.status === 0 ? '' : ' FAILED'}`).join(', ')}\n`,
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
