import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@gflow/errors';
import { resolveLeaseWaitSeconds, validateLeaseWaitSeconds } from './waitPolicy.js';

describe('lease wait policy', () => {
  it('defaults to 600 for the CLI (one generation ahead may take that long) and 180 for servers', () => {
    expect(resolveLeaseWaitSeconds('cli')).toBe(600);
    expect(resolveLeaseWaitSeconds('server')).toBe(180);
  });

  it('uses the value the user set on every surface, including 0 for a server', () => {
    expect(resolveLeaseWaitSeconds('cli', 30)).toBe(30);
    expect(resolveLeaseWaitSeconds('cli', 0)).toBe(0);
    expect(resolveLeaseWaitSeconds('server', 0)).toBe(0);
    expect(resolveLeaseWaitSeconds('server', 3600)).toBe(3600);
  });

  it('refuses values outside 0–3600 as configuration (exit 11), naming the setting', () => {
    for (const bad of [-1, 3600.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveLeaseWaitSeconds('server', bad)).toThrow(ConfigurationError);
    }
    const error = (() => {
      try {
        validateLeaseWaitSeconds(9999, 'GFLOW_CLI_LEASE_WAIT_SECONDS');
        return undefined;
      } catch (e) {
        return e as ConfigurationError;
      }
    })();
    expect(error?.exitCode).toBe(11);
    expect(error?.detail).toContain('GFLOW_CLI_LEASE_WAIT_SECONDS');
  });
});
