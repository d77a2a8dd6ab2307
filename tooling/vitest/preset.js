import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The kinds of test (docs/TESTING.md), by file name, so they cannot drift:
 * - unit: beside the code, `src/**\/*.test.ts`: no browser and no child process
 *   (tooling/test/testKinds.test.js fails on one that starts either). `npm run test:unit` runs
 *   exactly these, in one vitest run (tooling/vitest/unit.config.js), and so does the second
 *   Node line of `npm test`.
 * - suite: `test/**\/*.test.ts`: child processes, servers, real SQLite files, the gflow binary.
 * - browser: a suite that launches Chromium is `test/**\/*.browser.test.ts`.
 * - regression: `test/regression/issue-<n>-<slug>.test.ts` (or `.browser.test.ts`).
 */
export const UNIT_TESTS = ['src/**/*.test.ts'];
export const SUITE_TESTS = ['test/**/*.test.ts'];
export const BROWSER_SUFFIX = '.browser.test.ts';

/**
 * With GFLOW_TEST_REPORT_DIR set (tooling/scripts/testAll.mjs), a run also writes a JSON report
 * `<dir>/<name>.json`, so the whole suite can be summed up in one line.
 * @param {string} name
 */
export function reportTo(name) {
  const reportDir = process.env.GFLOW_TEST_REPORT_DIR;
  return {
    reporters: reportDir ? ['default', 'json'] : ['default'],
    ...(reportDir ? { outputFile: { json: path.join(reportDir, `${name}.json`) } } : {}),
  };
}

/** What every run shares: forks keep native addons (better-sqlite3), child processes and browsers isolated per file. */
export const BASE_TEST_OPTIONS = { pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000, passWithNoTests: true };

/**
 * A package's run holds its browser suites, whose tests take 5–60 s of real work each (page loads,
 * reloads, whole generations, child servers) and two to three times that on a loaded 2-core
 * machine (a clean-clone run measured 1.7× another's on the same commit): the limit only catches a
 * hung test, so it sits well above any pace a machine runs at — after three minutes.
 */
const SUITE_TEST_TIMEOUT_MS = 180_000;

/**
 * The shared vitest preset of a package: its unit tests and its suites.
 * @param {import('vitest/config').ViteUserConfig['test']} [overrides]
 */
export function defineGflowVitest(overrides = {}) {
  return defineConfig({
    test: {
      include: [...UNIT_TESTS, ...SUITE_TESTS],
      ...BASE_TEST_OPTIONS,
      testTimeout: SUITE_TEST_TIMEOUT_MS,
      hookTimeout: SUITE_TEST_TIMEOUT_MS,
      ...reportTo(path.basename(process.cwd())),
      ...overrides,
    },
  });
}
