import { describe, expect, it } from 'vitest';
import { checkForUpdate, compareVersions } from './checkForUpdate.js';

describe('update check', () => {
  it('compares versions numerically, pre-releases first', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('v2.0', '1.9.9')).toBe(1);
  });

  it('reports npm installs with an npm command and a registry error as unknown', async () => {
    const fetchImpl = (async () => new Response('nope', { status: 404 })) as typeof fetch;
    const report = await checkForUpdate({
      installed: '0.1.0',
      packageName: '@gflow/app',
      registry: 'https://r.example',
      enabled: true,
      scriptPath: '/usr/lib/node_modules/@gflow/app/bin/gflow.js',
      fetchImpl,
    });
    expect(report).toMatchObject({
      status: 'unknown',
      installer: 'npm',
      command: 'npm install -g @gflow/app@latest',
      upgraded: false,
    });
  });
});
