import { cli, json } from '@gflow/testkit/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRegistry } from './fakeRegistry.js';

let server: Awaited<ReturnType<typeof startFakeRegistry>>;
let registry = '';
let asked: string[] = [];

beforeAll(async () => {
  server = await startFakeRegistry();
  registry = server.url;
  asked = server.asked;
});
afterAll(() => server?.close());

describe('gflow update --check', () => {
  it('reports a newer version from the registry and how to upgrade, without upgrading', async () => {
    const r = await cli(['update', '--check', '--json'], { env: { GFLOW_CLI_UPDATE_REGISTRY: registry } });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toMatchObject({
      status: 'update_available',
      latest: '99.1.0',
      update_available: true,
      upgraded: false,
      installer: 'source',
      command: expect.any(String),
    });
    expect(asked).toContain('/@gflow%2Fapp/latest');
  });

  it('says offline (exit 0) when the registry cannot be reached', async () => {
    const r = await cli(['update', '--check', '--json'], { env: { GFLOW_CLI_UPDATE_REGISTRY: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toMatchObject({ status: 'offline', latest: null, update_available: false, upgraded: false });
  });

  it('asks nothing when GFLOW_CLI_UPDATE_CHECK is off', async () => {
    const before = asked.length;
    const r = await cli(['update', '--check', '--json'], {
      env: { GFLOW_CLI_UPDATE_REGISTRY: registry, GFLOW_CLI_UPDATE_CHECK: '0' },
    });
    expect(json(r)).toMatchObject({ status: 'disabled' });
    expect(asked.length).toBe(before);
  });

  it('says not published (exit 0), not "HTTP 404", when the registry does not have @gflow/app', async () => {
    const unpublished = await startFakeRegistry(null);
    try {
      const env = { GFLOW_CLI_UPDATE_REGISTRY: unpublished.url };
      const r = await cli(['update', '--check', '--json'], { env });
      expect(r.exitCode).toBe(0);
      expect(json(r)).toMatchObject({
        status: 'not_published',
        latest: null,
        update_available: false,
        upgraded: false,
      });
      expect(String(json(r)['notes'])).toContain(`@gflow/app is not published on ${unpublished.url}`);
      const text = await cli(['update', '--check'], { env });
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toContain('not_published');
      expect(text.stdout).toContain('is not published');
      expect(text.stdout + text.stderr).not.toContain('404');
      expect(unpublished.asked).toContain('/@gflow%2Fapp/latest');
    } finally {
      await unpublished.close();
    }
  });
});
