import { defineConfig } from 'vitest/config';

/**
 * Shared vitest preset. Unit tests sit beside the code (`src/**\/*.test.ts`);
 * slower suites live in `test/`. Each package runs in forks so native addons
 * (better-sqlite3) and child processes behave as in production.
 * @param {import('vitest/config').ViteUserConfig['test']} [overrides]
 */
export function defineGflowVitest(overrides = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      reporters: process.env.CI ? ['default'] : ['default'],
      ...overrides,
    },
  });
}
