// Issue 16: which Node gflow runs on. The launcher checks the running Node against
// engines.node before anything native loads; an old Node gets one line and exit 11.
import { spawnSync } from 'node:child_process';
import { provisionNode } from '@gflow/tooling/node';
import { describe, expect, it } from 'vitest';
import { nodeSupport, satisfiesNodeRange, supportedNodeRange, unsupportedNodeMessage } from '../bin/nodeSupport.js';
import { GFLOW_BIN } from '@gflow/testkit/cli';

/** A Node outside the range, from the npm registry (cached under <repo>/.node/ like the pinned ones). */
const OLD_NODE = '20.20.2';

describe('satisfiesNodeRange', () => {
  it.each([
    ['20.20.2', false],
    ['22.18.0', false],
    ['22.19.0', true],
    ['v22.23.3', true],
    ['23.11.1', false],
    ['24.0.0', true],
    ['24.21.0', true],
    ['26.1.0', true],
  ])('the app range takes %s: %s', (version, expected) => {
    expect(satisfiesNodeRange(version, supportedNodeRange())).toBe(expected);
  });

  it.each([
    ['18.2.0', '>=18 <20', true],
    ['20.0.0', '>=18 <20', false],
    ['22.5.1', '~22.5', true],
    ['22.6.0', '~22.5.0', false],
    ['24.3.0', '24.x', true],
    ['25.0.0', '24.x', false],
    ['22.19.0', '=22.19.0', true],
    ['22.19.1', '22.19.0', false],
  ])('%s against %s: %s', (version, range, expected) => {
    expect(satisfiesNodeRange(version, range)).toBe(expected);
  });

  it('refuses a range form it cannot read instead of guessing', () => {
    expect(() => satisfiesNodeRange('24.0.0', '>=24 <=latest')).toThrow(/unsupported Node range comparator/);
  });

  it('this test run is on a supported Node', () => {
    expect(nodeSupport()).toEqual({ version: process.versions.node, range: supportedNodeRange(), supported: true });
  });
});

describe(`the launcher on Node ${OLD_NODE}`, () => {
  const oldNode = provisionNode(OLD_NODE);

  it.each([['--version'], ['doctor'], ['image', 't2i', 'a fox', '--sandbox']])(
    'gflow %s says which Node it needs and exits 11',
    (...args) => {
      const r = spawnSync(oldNode, [GFLOW_BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GFLOW_CLI_HOME: '/nonexistent-gflow-home' },
      });
      expect(r.status).toBe(11);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${unsupportedNodeMessage({ version: OLD_NODE, range: supportedNodeRange() })}\n`);
      expect(r.stderr).toContain('^22.19.0 || >=24');
    },
  );
});
