import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowSim } from '../startFlowSim.js';
import type { FlowSim } from '../startFlowSim.js';

let sim: FlowSim;
beforeAll(async () => {
  sim = await startFlowSim();
});
afterAll(async () => {
  await sim.close();
});

const call = (path: string, init: RequestInit = {}, token = sim.control.token) =>
  fetch(`${sim.control.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });

describe('HTTP control endpoint', () => {
  it('refuses a missing or wrong token', async () => {
    expect((await call('/received', {}, 'nope')).status).toBe(401);
  });

  it('steers the same scenario the in-process API sees', async () => {
    const res = await call('/scenario', {
      method: 'POST',
      body: JSON.stringify({
        method: 'createAccount',
        args: [{ email: 'cli@example.com', credits: 42, cohort: 'agent_only' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(sim.scenario.getAccount('cli@example.com')).toMatchObject({ credits: 42, cohort: 'agent_only' });
    await call('/scenario', {
      method: 'POST',
      body: JSON.stringify({ method: 'setFailure', args: ['cli@example.com', 'http_429', { times: 1 }] }),
    });
    expect(sim.scenario.listFailures()).toEqual([
      { scope: 'cli@example.com', name: 'http_429', options: { times: 1 } },
    ]);
    expect(
      (
        await call('/scenario', {
          method: 'POST',
          body: JSON.stringify({ method: 'setFailure', args: ['cli@example.com', 'bogus'] }),
        })
      ).status,
    ).toBe(400);
    expect((await call('/scenario', { method: 'POST', body: JSON.stringify({ method: 'close' }) })).status).toBe(400);
  });

  it('reports the launch arguments and the received log', async () => {
    const launch = (await (await call('/launch')).json()) as { chromiumArgs: string[]; contextOptions: unknown };
    expect(launch.chromiumArgs[0]).toContain(`MAP flow.google.com 127.0.0.1:${sim.port}`);
    expect(launch.chromiumArgs[0]).toContain('MAP * ~NOTFOUND');
    expect(launch.contextOptions).toEqual({ ignoreHTTPSErrors: true });
    expect(await (await call('/received')).json()).toEqual([]);
  });
});
