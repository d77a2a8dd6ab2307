import { describe, expect, it } from 'vitest';
import { cli, makeHome } from '@gflow/testkit/cli';

describe('gflow telemetry (local usage recording)', () => {
  it('is on by default, records invocations, and stops recording when turned off', async () => {
    const home = makeHome();
    const status = JSON.parse((await cli(['telemetry', 'status', '--json'], { home })).stdout) as {
      recording: string;
      upload: boolean;
    };
    expect(status).toMatchObject({ recording: 'on', upload: false });

    await cli(['models', '--json'], { home });
    const before = JSON.parse((await cli(['data', 'usage', '--json'], { home })).stdout) as {
      invocations: { total: number };
      telemetry: { state: string };
    };
    expect(before.telemetry.state).toBe('on');
    expect(before.invocations.total).toBeGreaterThanOrEqual(1);

    const off = await cli(['telemetry', 'off', '--json'], { home });
    expect(off.exitCode).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ recording: 'off' });
    await cli(['models', '--json'], { home });
    await cli(['models', '--json'], { home });
    const after = JSON.parse((await cli(['data', 'usage', '--json'], { home })).stdout) as {
      invocations: { total: number };
      telemetry: { state: string };
    };
    expect(after.telemetry.state).toBe('off');
    // The `data usage` call that read `before` was itself recorded; nothing since `off`.
    expect(after.invocations.total).toBe(before.invocations.total + 1);

    expect(JSON.parse((await cli(['telemetry', 'on', '--json'], { home })).stdout)).toMatchObject({ recording: 'on' });
  }, 60_000);
});
