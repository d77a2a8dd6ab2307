import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@gflow/errors';
import fs from 'node:fs';
import { assertSupportedNode, SUPPORTED_NODE_RANGE, satisfiesNodeRange } from './nodeSupport.js';

describe('the library checks the running Node (issue 42)', () => {
  it("is core's own engines.node", () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(SUPPORTED_NODE_RANGE).toBe(pkg.engines.node);
  });

  it.each([
    ['20.20.2', false],
    ['v20.20.2', false],
    ['22.18.0', false],
    ['22.19.0', true],
    ['22.23.3', true],
    ['23.11.1', false],
    ['24.0.0', true],
    ['26.1.0', true],
  ])('Node %s supported: %s', (version, expected) => {
    expect(satisfiesNodeRange(version, SUPPORTED_NODE_RANGE)).toBe(expected);
  });

  it('refuses an older Node with a configuration error (exit 11) that names both versions', () => {
    let caught: unknown;
    try {
      assertSupportedNode('20.20.2');
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'configuration')).toBe(true);
    expect((caught as Error).message).toContain('Node ^22.19.0 || >=24 (this is Node 20.20.2)');
    expect((caught as { exitCode: number }).exitCode).toBe(11);
    expect(() => assertSupportedNode(process.versions.node)).not.toThrow();
  });

  it('refuses a range form it cannot read instead of guessing', () => {
    expect(() => satisfiesNodeRange('24.0.0', '>=24 <=latest')).toThrow(/unsupported Node range comparator/);
  });
});
