import { describe, expect, it } from 'vitest';
import { checkRuntime } from './doctorChecks.js';

describe('doctor: runtime check', () => {
  it('is ok on a supported Node and names the range', () => {
    expect(checkRuntime({ version: '24.21.0', range: '^22.19.0 || >=24', supported: true })).toEqual({
      check: 'runtime',
      severity: 'ok',
      detail: 'Node 24.21.0 (supported: ^22.19.0 || >=24)',
    });
  });

  it('fails below the supported range', () => {
    const check = checkRuntime({ version: '20.20.2', range: '^22.19.0 || >=24', supported: false });
    expect(check.severity).toBe('fail');
    expect(check.detail).toContain('Node 20.20.2 is outside the supported range ^22.19.0 || >=24');
  });

  it('says so when the embedding does not tell the range', () => {
    expect(checkRuntime(undefined).severity).toBe('info');
  });
});
