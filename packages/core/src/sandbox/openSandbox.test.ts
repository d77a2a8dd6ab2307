import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.js';
import { loadFlowSim, runtimeChoices } from './openSandbox.js';

describe("the sandbox passes the runtime's choices on (issue 42)", () => {
  it('logger, keepSessionsWarm and throwOnFailure as given, false included', () => {
    const logger = createLogger({ level: 'ERROR', format: 'json', write: () => undefined });
    expect(runtimeChoices({ logger, keepSessionsWarm: false, throwOnFailure: true })).toEqual({
      logger,
      keepSessionsWarm: false,
      throwOnFailure: true,
    });
    expect(runtimeChoices({ keepSessionsWarm: true, worker: true })).toEqual({ keepSessionsWarm: true, worker: true });
  });

  it('nothing it was not given (the surface policy decides)', () => {
    expect(runtimeChoices({ env: {}, cwd: '/tmp' })).toEqual({});
  });
});

describe('the simulator is an optional peer (issue 42)', () => {
  it('missing, the sandbox says so and how to install it (a configuration error, exit 11)', async () => {
    const missing = Object.assign(new Error("Cannot find package '@gflow/flow-sim' imported from /app/x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await loadFlowSim(() => Promise.reject(missing)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'configuration', exitCode: 11 });
    expect((error as Error).message).toContain('@gflow/flow-sim, which is not installed');
    expect((error as { remediationHint: string }).remediationHint).toContain('npm install @gflow/flow-sim');
  });

  it('another failure inside it is not taken for a missing package', async () => {
    const inside = Object.assign(new Error("Cannot find module '/app/node_modules/@gflow/flow-sim/dist/x.js'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadFlowSim(() => Promise.reject(inside))).rejects.toBe(inside);
  });

  it('installed, it loads', async () => {
    expect(typeof (await loadFlowSim()).startFlowSim).toBe('function');
  });
});
