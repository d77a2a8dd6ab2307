import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Shared vitest preset. Unit tests sit beside the code (`src/**\/*.test.ts`);
 * slower suites live in `test/`. Forks keep native addons (better-sqlite3),
 * child processes and browsers isolated per file. When GFLOW_TEST_REPORT_DIR is
 * set (tooling/scripts/testAll.mjs), each package also writes a JSON report so
 * the whole run can be summed up in one line.
 * @param {import('vitest/config').ViteUserConfig['test']} [overrides]
 */
export function defineGflowVitest(overrides = {}) {
  const reportDir = process.env.GFLOW_TEST_REPORT_DIR;
  const name = path.basename(process.cwd());
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      pool: 'forks',
      testTimeout: 30_000,
      passWithNoTests: true,
      hookTimeout: 60_000,
      reporters: reportDir ? ['default', 'json'] : ['default'],
      ...(reportDir ? { outputFile: { json: path.join(reportDir, `${name}.json`) } } : {}),
      ...overrides,
    },
  });
}
