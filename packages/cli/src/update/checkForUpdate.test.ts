import { describe, expect, it } from 'vitest';
import { UPGRADE_FROM_CHECKOUT, checkForUpdate, compareVersions } from './checkForUpdate.js';

describe('update check', () => {
  it('compares versions numerically, pre-releases first', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('v2.0', '1.9.9')).toBe(1);
  });

  it('reports npm installs with an npm command and a registry error as unknown', async () => {
    const fetchImpl = (async () => new Response('nope', { status: 503 })) as typeof fetch;
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
    expect(report.notes).toContain('HTTP 503');
  });

  it('says not published (no HTTP 404) when the registry does not have the package', async () => {
    const fetchImpl = (async () => new Response('{"error":"Not found"}', { status: 404 })) as typeof fetch;
    const options = { installed: '0.1.0', packageName: '@gflow/app', registry: 'https://r.example', enabled: true };
    const npm = await checkForUpdate({
      ...options,
      scriptPath: '/usr/lib/node_modules/@gflow/app/bin/gflow.js',
      fetchImpl,
    });
    expect(npm).toMatchObject({
      status: 'not_published',
      latest: null,
      update_available: false,
      command: UPGRADE_FROM_CHECKOUT,
    });
    expect(npm.notes).toContain('@gflow/app is not published on https://r.example');
    expect(npm.notes).not.toContain('404');
    const source = await checkForUpdate({ ...options, scriptPath: '/src/gflow/apps/app/bin/gflow.js', fetchImpl });
    expect(source).toMatchObject({ status: 'not_published', command: 'git pull && npm run bootstrap' });
  });
});
