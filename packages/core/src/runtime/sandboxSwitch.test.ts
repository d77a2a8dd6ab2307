import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { createGflow } from './createGflow.js';

// Issue 28: GFLOW_CLI_SANDBOX=true must never quietly reach the real Flow.
describe('the sandbox switch', () => {
  const env = { GFLOW_CLI_HOME: os.tmpdir(), GFLOW_CLI_SANDBOX: 'true' };

  it('refuses a runtime the sandbox did not open (exit 11), naming where the switch came from', () => {
    expect(() => createGflow({ surface: 'library', env, cwd: os.tmpdir() })).toThrow(
      expect.objectContaining({
        exitCode: 11,
        message: expect.stringContaining('GFLOW_CLI_SANDBOX=true in the environment'),
      }),
    );
  });

  it('accepts it in a runtime whose browser is the sandbox', async () => {
    const gflow = createGflow({ surface: 'library', env, cwd: os.tmpdir(), browser: { sandbox: true } });
    expect(gflow.settings.sandbox).toBe(true);
    await gflow.close();
  });
});
